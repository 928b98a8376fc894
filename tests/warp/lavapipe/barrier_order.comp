#version 460
// lavapipe's barrier() in divergent code: an event log. Every event appends (subgroup << 8 | label) through a
// global atomic counter, logged by one lane of the subgroup (subgroupElect), so the log shows the order in which
// the SIMD vectors (one per subgroup of 8) run between barriers. 32 threads = 4 vectors.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform P2GPush { uint64_t params; uint64_t globals; } pc;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer P2GU64 { uint64_t v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Out { uint w[]; };
Out o;
void ev(uint label) {
  if (subgroupElect()) { uint s = atomicAdd(o.w[0], 1u); o.w[1u + s] = (gl_SubgroupID << 8) | label; }
}
// per-lane events: (lane << 8 | label), every active lane logs
void lev(uint label) { uint s = atomicAdd(o.w[0], 1u); o.w[1u + s] = 0x10000u | (gl_LocalInvocationIndex << 8) | label; }
void main() {
  o = Out(P2GU64(pc.params).v);
  uint lid = gl_LocalInvocationIndex, sg = lid >> 3;
  ev(1);
  // A: subgroup 0 runs two barriers in a branch, the others one barrier in another branch
  if (sg == 0u) { ev(2); barrier(); ev(3); barrier(); ev(4); }
  else { ev(5); barrier(); ev(6); }
  ev(7);
  barrier();
  ev(8);
  // B: within subgroup 1, lanes 8..11 take one side (one barrier), lanes 12..15 the other (one barrier)
  if (sg == 1u) {
    if (lid < 12u) { ev(9); barrier(); ev(10); } else { ev(11); barrier(); ev(12); }
  }
  ev(13);
  barrier();
  // C: a branch no lane of subgroups 0..2 takes, with a barrier inside (does a vector with no active lane run it?)
  if (lid >= 24u) { ev(14); barrier(); ev(15); }
  ev(16);
  barrier();
  ev(17);
  // D: loops with a barrier, trip count per subgroup sg+1
  for (uint i = 0u; i <= sg; ++i) { ev(32u + i); barrier(); }
  ev(18);
  // E: subgroup 3 leaves now; the others still meet two barriers
  if (sg == 3u) return;
  barrier();
  ev(19);
  barrier();
  ev(20);
  // F: per-lane trip counts inside one subgroup (lanes 0..7 loop lane+1 times), barrier in the loop
  if (sg == 0u) { for (uint i = 0u; i <= lid; ++i) { lev(64u + i); barrier(); } }
  else { lev(100u); barrier(); lev(101u); }
  ev(21);
}
