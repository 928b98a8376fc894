// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// f32 arithmetic as nvcc emits it by default (no fast-math): mul+add pairs that ptxas may contract into FFMA
// (HAZARDS.md row 4), a product with a second use (not contracted), explicitly rounded __fmul_rn/__fadd_rn/
// __fmaf_rn (never contracted), div.rn via '/', sqrt.rn via sqrtf, fminf/fmaxf, fabsf, and the four rounding
// functions floorf/ceilf/truncf/rintf (cvt.rmi/rpi/rzi/rni). Also a Horner polynomial (a chain of contractions).
extern "C" __global__ void f32_arith(const float* a, const float* b, const float* c, float* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i], y = b[i], z = c[i];
    float* o = out + 20 * i;

    o[0] = x * y + z;                   // contractible: the product's only use is the add
    float p = x * y;                    // product used twice: stays a separate mul
    o[1] = p + z;
    o[2] = p - z * 0.5f;
    o[3] = x * y - z * y;               // two products feeding one sub
    o[4] = __fmaf_rn(x, y, z);
    o[5] = __fadd_rn(__fmul_rn(x, y), z); // explicit rn: must stay unfused
    o[6] = x / y;
    o[7] = sqrtf(fabsf(z));
    o[8] = fminf(x, y);
    o[9] = fmaxf(x, z);
    o[10] = fabsf(x - y);
    o[11] = floorf(x * 3.0f);
    o[12] = ceilf(y * 3.0f);
    o[13] = truncf(z * 3.0f);
    o[14] = rintf(x * 3.0f + 0.5f);     // half-way cases go to even
    o[15] = ((0.25f * x + 0.5f) * x - 1.25f) * x + 2.0f; // Horner: a chain of contractible mul+add
    o[16] = (x + y) * (x - y) / (z * z + 1.0f);
    o[17] = -x * y - z;                 // negated product
    o[18] = x * 0.1f + y * 0.2f + z * 0.3f;
    float acc = 0.0f;
    for (int k = 1; k <= 8; ++k) acc = acc * x + (float)k * y;  // loop-carried contraction
    o[19] = acc;
}
