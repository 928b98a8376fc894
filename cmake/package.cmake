# `cpack -G DEB` in the build folder (or `cmake --build build --target package`): a Debian package of what
# `cmake --install` installs (bin/ptx2glsl, share/ptx2glsl/), under /usr. tests/package/check_deb.sh installs it
# with apt in a fresh Debian 12 root.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ptx2glsl)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ptx2glsl maintainers <ptx2glsl@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "PTX to GLSL/SPIR-V translator with a Vulkan runtime (lavapipe by default)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # ptx2glsl_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# glslang and SPIRV-Tools are linked statically (Debian ships only their static libraries), so the run-time
# dependencies are the Vulkan loader, a Vulkan driver (lavapipe, the default device, is in mesa-vulkan-drivers)
# and the C/C++ runtime; dpkg-shlibdeps (dpkg-dev) derives the versioned libc6/libstdc++6/libgcc-s1/libvulkan1
# entries from the binary itself.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "mesa-vulkan-drivers")
find_program(P2G_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(P2G_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${CPACK_DEBIAN_PACKAGE_DEPENDS}, libvulkan1, libc6, libstdc++6, libgcc-s1")
endif()
include(CPack)
