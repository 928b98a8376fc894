// A descriptor other than a combined image sampler (a storage buffer at set 0, binding 1): no runtime of ptx2glsl
// binds one, so tests/runtime/test_device_images.cpp expects spirvSamplerBindings to refuse it.
#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 1) buffer Out { uint v; } outBuf;

void main() { outBuf.v = 1u; }
