// Preloaded (LD_PRELOAD) into every test process by tests/sanitize.sh: loads lavapipe's Vulkan driver once with
// RTLD_NODELETE, so the Vulkan loader's dlclose at vkDestroyInstance no longer unloads it.
// Why: Mesa 22.3.6-1+deb12u2's lavapipe keeps a 128-byte block (allocated with realloc while the driver loads) in
// a global and does not free it; once the driver is unloaded the block is unreachable and LeakSanitizer reports it
// from "<unknown module>" in every process that opened a Vulkan instance, even `ptx2glsl devices` (measured
// 2026-12-02 on a 2-core AVX-512 machine: VK_DRIVER_FILES=<lvp_icd.x86_64.json> leaks, the radeon, intel and
// intel_hasvk drivers alone do not). Kept loaded, the block stays reachable and is not a leak; leaks of this
// project's code are reported as before.
#include <dlfcn.h>

__attribute__((constructor)) static void pinLavapipe(void) {
  dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
}
