// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// neg.f32 and abs.f32 read only as operands of f32 add/sub/mul/fma (passes/exact_nan's kMarkSignOnly: the
// translator then writes `-x` / `abs(x)` and lets the device fold the sign into the consumer), and, for contrast,
// a neg whose bits are also stored. The operands come from random bits shaped into every class: +-0, NaN with a
// payload, +-infinity, subnormals, the smallest normals, and plain random bits. Each operation is inline PTX so
// that the PTX keeps the sign operation apart from its consumer.
__device__ __forceinline__ float shape(unsigned r) {
  unsigned s = r & 0x80000000u, m = (r >> 8) & 0x7FFFFFu;
  switch (r & 7u) {
    case 0: return __uint_as_float(s);                                // +-0
    case 1: return __uint_as_float(s | 0x7F800000u | m | 1u);         // NaN, payload (quiet or signalling)
    case 2: return __uint_as_float(s | 0x7F800000u);                  // +-infinity
    case 3: return __uint_as_float(s | m);                            // subnormal (or zero)
    case 4: return __uint_as_float(s | 0x00800000u | m);              // the smallest normals
    default: return __uint_as_float(r);                               // anything
  }
}
#define OP2(name, body)                                                                                  \
  __device__ __forceinline__ float name(float a, float b) {                                             \
    float d;                                                                                            \
    asm("{\n\t.reg .f32 t;\n\t" body "\n\t}" : "=f"(d) : "f"(a), "f"(b));                               \
    return d;                                                                                           \
  }
#define OP3(name, body)                                                                                  \
  __device__ __forceinline__ float name(float a, float b, float c) {                                    \
    float d;                                                                                            \
    asm("{\n\t.reg .f32 t;\n\t" body "\n\t}" : "=f"(d) : "f"(a), "f"(b), "f"(c));                       \
    return d;                                                                                           \
  }
OP2(neg_add, "neg.f32 t, %1;\n\tadd.f32 %0, t, %2;")
OP2(neg_sub, "neg.f32 t, %1;\n\tsub.f32 %0, %2, t;")
OP2(neg_mul, "neg.f32 t, %1;\n\tmul.f32 %0, t, %2;")
OP3(neg_fma_a, "neg.f32 t, %1;\n\tfma.rn.f32 %0, t, %2, %3;")
OP3(neg_fma_c, "neg.f32 t, %1;\n\tfma.rn.f32 %0, %2, %3, t;")
OP2(neg_add_ftz, "neg.f32 t, %1;\n\tadd.ftz.f32 %0, t, %2;")
OP2(neg_mul_sat, "neg.f32 t, %1;\n\tmul.sat.f32 %0, t, %2;")
OP2(negftz_add, "neg.ftz.f32 t, %1;\n\tadd.f32 %0, t, %2;")
OP2(abs_mul, "abs.f32 t, %1;\n\tmul.f32 %0, t, %2;")
OP2(neg_self, "neg.f32 t, %1;\n\tmul.f32 %0, t, t;")
OP2(neg_twice, "neg.f32 t, %1;\n\tadd.f32 %0, t, %2;\n\tneg.f32 t, %0;\n\tmul.f32 %0, t, %2;")
extern "C" __global__ void neg_operand(const unsigned* __restrict__ in, float* __restrict__ out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = shape(in[3 * i]), b = shape(in[3 * i + 1]), c = shape(in[3 * i + 2]);
  float* o = out + 13 * i;
  o[0] = neg_add(a, b);
  o[1] = neg_sub(a, b);
  o[2] = neg_mul(a, b);
  o[3] = neg_fma_a(a, b, c);
  o[4] = neg_fma_c(a, b, c);
  o[5] = neg_add_ftz(a, b);
  o[6] = neg_mul_sat(a, b);
  o[7] = negftz_add(a, b);
  o[8] = abs_mul(a, b);
  o[9] = neg_self(a, b);
  o[10] = neg_twice(a, b);
  // a neg whose bits are stored as well as added: it keeps PTX's canonical NaN
  float n;
  asm("neg.f32 %0, %1;" : "=f"(n) : "f"(a));
  o[11] = n;
  o[12] = n + b;
}
