// nvcc -ptx -G -arch=sm_90 kernels/debug_G.cu -o ptx/debug_G.ptx
// A debug build (-G): no optimization, a .local depot with %SP/%SPL, .loc/.file line info on each statement, and
// the DWARF .section .debug_loc/.debug_abbrev/.debug_info/.debug_macinfo bodies (.b8/.b32/.b64 lists with labels).
#include <cuda_fp16.h>

struct Particle {
  float3 pos, vel;
  int id;
};

__device__ float kinetic(const Particle& p) { return 0.5f * (p.vel.x * p.vel.x + p.vel.y * p.vel.y + p.vel.z * p.vel.z); }

__device__ void step(Particle& p, float dt) {
  p.pos.x += p.vel.x * dt;
  p.pos.y += p.vel.y * dt;
  p.pos.z += p.vel.z * dt;
  if (p.pos.y < 0.f) {
    p.pos.y = -p.pos.y;
    p.vel.y = -p.vel.y * 0.9f;
  }
}

__global__ void simulate(Particle* parts, float* energy, __half* hout, int n, int steps, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle p = parts[i];
  float e = 0.f;
  for (int s = 0; s < steps; ++s) {
    p.vel.y -= 9.81f * dt;
    step(p, dt);
    e += kinetic(p);
  }
  parts[i] = p;
  energy[i] = e / steps;
  hout[i] = __float2half(e);
}
