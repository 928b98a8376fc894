// nvcc -ptx -O3 -arch=sm_90 kernel.cu -o kernel.ptx
// Re-creation of DLSS's output kernel (hiluma_engine_output_depthinv_mvlo_hdr_max_v2_rel) from the
// reverse-engineering notes in shared/seeds/OUTPUT_K_NOTES.md; ../README.md maps the parameter block. One 16x16
// block per 16x16 output pixels: the block loads the render-resolution colour it needs into shared memory as
// range-compressed YCoCg (f16 x4) with the depth next to it, then every thread resolves one output pixel: depth
// dilation, motion, history colour, a Catmull-Rom hi-res history (4 sub-pixels) through tex2Dgather, the
// kernel-predicted 12-tap luma filter whose Gaussian comes from a LUT indexed by the network head, the history
// blend, and four surface stores. Only what the notes describe is modelled: path B (the tile fits in 24x24), the
// P90 == 0 path and the P91 == 0 tail; the other flag paths are placeholders named where they occur.
// Same source for k_output and k_output_720p: only case.json differs.
#include <cuda_fp16.h>
#include <cstddef>

struct __align__(8) OutputParams {
    float2 mvScale;              // 0    P0: motion texel -> output pixels
    float2 mvOffset;             // 8    P8: added to the motion texel before scaling
    float2 renderOffset;         // 16   P16: render-space offset (jitter - .5)
    float2 unused24;             // 24
    unsigned char resetHistory;  // 32   P32: history invalid when non-zero
    unsigned char unused33[7];
    float2 renderPerOutput;      // 40   P40: render pixels per output pixel (tile, bilinear)
    float2 renderPerHires;       // 48   P48: render pixels per hi-res sub-pixel
    float2 renderPerOutputNear;  // 56   P56: render pixels per output pixel (nearest depth)
    float2 tokenScale;           // 64   P64: output pixel -> token half-cells
    float2 unused72;             // 72
    unsigned tokensX;            // 80   P80: token grid width
    unsigned tokensY;            // 84   P84: token grid height
    unsigned char flag88;        // 88   P88: not used by the notes' paths
    unsigned char debugColours;  // 89   P89: debug colours where a value was not finite
    unsigned char altPath;       // 90   P90: 0 in the captures (the only modelled path)
    unsigned char altTail;       // 91   P91: 0 in the captures (the only modelled tail)
    unsigned unused92;
    uint2 depthOrigin, depthMax;    // 96, 104
    uint2 motionOrigin, motionMax;  // 112, 120
    uint2 outOrigin, outSize;       // 128, 136
    float2 historyUvScale;       // 144  P144: output pixels -> history uv
    float2 validUvScale;         // 152  P152: output pixels -> uv for the on-screen test
    float exposureScale;         // 160
    float unused164;
    float exposureMul;           // 168
    float sharpness;             // 172  Catmull-Rom sharpening weight
    float minConfidence;         // 176
    float lutThreshold;          // 180
    __half blendBias;            // 184
    __half blendScale;           // 186
    __half lutIndexScale;        // 188
    __half confK190;             // 190
    __half confK192;             // 192
    unsigned short unused194[3];
    cudaTextureObject_t color;   // 200  render colour (linear filter, fetched by texel)
    uint2 colorOrigin, colorMax; // 208, 216
    cudaTextureObject_t history;       // 224  history colour, compressed YCoCg + confidence (linear)
    cudaTextureObject_t hiresHistory;  // 232  hi-res (2x) history luma, R16F (linear)
    cudaTextureObject_t motion;        // 240  RG16F (point)
    cudaTextureObject_t depth;         // 248  R32F inverted depth (point)
    cudaTextureObject_t exposurePrev;  // 256  1x1
    cudaTextureObject_t exposureCur;   // 264  1x1
    const __half* head;                // 272  network head, 40 f16 per token
    const uint4* lut;                  // 280  16-byte kernel entries
    cudaSurfaceObject_t historyOut;    // 288  RGBA16F, output resolution
    cudaSurfaceObject_t hiresOut;      // 296  R16F, 2x output resolution
    cudaSurfaceObject_t tokenOut;      // 304  RGBA32F, token grid
    cudaSurfaceObject_t finalOut;      // 312  RGBA16F
    unsigned long long unused320;
};
static_assert(sizeof(OutputParams) == 328, "parameter block is 328 bytes");
static_assert(offsetof(OutputParams, resetHistory) == 32 && offsetof(OutputParams, tokensX) == 80 &&
              offsetof(OutputParams, depthOrigin) == 96 && offsetof(OutputParams, historyUvScale) == 144 &&
              offsetof(OutputParams, exposureScale) == 160 && offsetof(OutputParams, blendBias) == 184 &&
              offsetof(OutputParams, confK192) == 192 && offsetof(OutputParams, color) == 200 &&
              offsetof(OutputParams, history) == 224 && offsetof(OutputParams, head) == 272 &&
              offsetof(OutputParams, historyOut) == 288 && offsetof(OutputParams, finalOut) == 312,
              "offsets as in OUTPUT_K_NOTES.md");

constexpr int kTile = 24;  // shared tile rows hold 24 texels: 192 bytes of colour, 96 of depth

// texelFetch: integer coordinates (tex.2d.v4.f32.s32), which the notes show for colour, depth and motion.
__device__ __forceinline__ float4 fetch(cudaTextureObject_t t, int x, int y)
{
    float4 v;
    asm("tex.2d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
        : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(t), "r"(x), "r"(y));
    return v;
}

// Texel coordinate inside a sub-rectangle: negative -> origin, else origin + v capped at the last texel.
__device__ __forceinline__ int clampCoord(int v, unsigned origin, unsigned last)
{
    return v > 0 ? (int)min(origin + (unsigned)v, last) : (int)origin;
}

// Range compression factor k(L): L * k(L) maps [0, inf) into [0, ~1.2), logarithmic above L = 1000.
__device__ __forceinline__ float compressK(float L)
{
    if (L < 1000.0f) return 1.0f / (L + 1.0f);
    return (log2f(9.0f * L + 1.0f) * 0.6931472f / 9.0f - 0.012676f) / L;
}

// Inverse of L * k(L).
__device__ __forceinline__ float expandG(float v)
{
    if (v < 0.999f) return __fdividef(v, 1.0f - v);
    return (exp2f((v + 0.012676f) * 9.0f * 1.442695f) - 1.0f) / 9.0f;
}

// expandG(v) / v: the factor that takes compressed YCoCg back to linear.
__device__ __forceinline__ float expandFactor(float v)
{
    if (v < 0.999f) return 1.0f / (1.0f - v);
    return (exp2f((v + 0.012676f) * 9.0f * 1.442695f) - 1.0f) / (9.0f * v);
}

// The hi-res history stores values >= .99 stretched by 1000; reads squeeze them back.
__device__ __forceinline__ float softClamp(float v) { return v < 0.99f ? v : 0.99f + (v - 0.99f) * 0.001f; }
__device__ __forceinline__ float hiresEncode(float v) { return v < 0.99f ? v : 0.99f + (v - 0.99f) * 1000.0f; }

__device__ __forceinline__ void catmullRom(float t, float w[4])
{
    float t2 = t * t, t3 = t2 * t;
    w[0] = t2 - 0.5f * (t + t3);
    w[1] = 1.5f * t3 - 2.5f * t2 + 1.0f;
    w[3] = 0.5f * (t3 - t2);
    w[2] = 1.0f - w[0] - w[1] - w[3];
}

// One Catmull-Rom pass over four taps: the bilinear part (a, b on the two middle taps) stays unclamped, the
// sharpening remainder is built from saturated taps and weighted by s.
__device__ __forceinline__ float sharpenedTap(const float w[4], float a, float b, float s, float v0, float v1,
                                              float v2, float v3)
{
    float sharp = w[0] * __saturatef(v0) + (w[1] - a) * __saturatef(v1) + (w[2] - b) * __saturatef(v2) +
                  w[3] * __saturatef(v3);
    return a * v1 + b * v2 + s * sharp;
}

__device__ __forceinline__ __half2 asHalf2(unsigned u) { return *reinterpret_cast<__half2*>(&u); }
__device__ __forceinline__ unsigned asU32(__half2 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ __forceinline__ __half lowHalf(unsigned u) { return __ushort_as_half((unsigned short)u); }
__device__ __forceinline__ __half highHalf(unsigned u) { return __ushort_as_half((unsigned short)(u >> 16)); }

__device__ __forceinline__ void storeRgba16f(cudaSurfaceObject_t s, int x, int y, float r, float g, float b,
                                             float a, cudaSurfaceBoundaryMode mode)
{
    ushort4 v = make_ushort4(__half_as_ushort(__float2half_rn(r)), __half_as_ushort(__float2half_rn(g)),
                             __half_as_ushort(__float2half_rn(b)), __half_as_ushort(__float2half_rn(a)));
    surf2Dwrite(v, s, x * 8, y, mode);
}

// Hi-res history at the 2x2 sub-pixels of output position q: 3x3 gathers give the 5x5 footprint T[c][r]
// (T[0][0] is texel floor(h - .5) - 1), then a separable sharpened Catmull-Rom per sub-pixel, clamped to the
// range of its four nearest texels. Hs[sx][sy].
__device__ __forceinline__ void hiresHistory(const OutputParams& p, float qx, float qy, float Hs[2][2])
{
    float hx = (qx - 0.5f) * 2.0f + 0.5f, hy = (qy - 0.5f) * 2.0f + 0.5f;
    float baseX = floorf(hx - 0.5f) + 0.5f, baseY = floorf(hy - 0.5f) + 0.5f;
    float wx[4], wy[4];
    catmullRom(__saturatef(hx - baseX), wx);
    catmullRom(__saturatef(hy - baseY), wy);
    float gsx = p.historyUvScale.x * 0.5f, gsy = p.historyUvScale.y * 0.5f;
    float T[6][6];
#pragma unroll
    for (int gy = 0; gy < 3; ++gy) {
#pragma unroll
        for (int gx = 0; gx < 3; ++gx) {
            float4 g = tex2Dgather<float4>(p.hiresHistory, gsx * (baseX + (2 * gx - 0.5f)),
                                           gsy * (baseY + (2 * gy - 0.5f)), 0);
            // Gather order: w = (i, j), z = (i+1, j), x = (i, j+1), y = (i+1, j+1).
            T[2 * gx][2 * gy] = softClamp(g.w);
            T[2 * gx + 1][2 * gy] = softClamp(g.z);
            T[2 * gx][2 * gy + 1] = softClamp(g.x);
            T[2 * gx + 1][2 * gy + 1] = softClamp(g.y);
        }
    }
    float ax = wx[1] / (wx[1] + wx[2]), bx = 1.0f - ax;
    float ay = wy[1] / (wy[1] + wy[2]), by = 1.0f - ay;
    float s = p.sharpness;
    float row[2][5];
#pragma unroll
    for (int c0 = 0; c0 < 2; ++c0)
#pragma unroll
        for (int r = 0; r < 5; ++r)
            row[c0][r] = sharpenedTap(wx, ax, bx, s, T[c0][r], T[c0 + 1][r], T[c0 + 2][r], T[c0 + 3][r]);
#pragma unroll
    for (int sx = 0; sx < 2; ++sx) {
#pragma unroll
        for (int sy = 0; sy < 2; ++sy) {
            float v = sharpenedTap(wy, ay, by, s, row[sx][sy], row[sx][sy + 1], row[sx][sy + 2], row[sx][sy + 3]);
            float lo = fminf(fminf(T[sx + 1][sy + 1], T[sx + 2][sy + 1]), fminf(T[sx + 1][sy + 2], T[sx + 2][sy + 2]));
            float hi = fmaxf(fmaxf(T[sx + 1][sy + 1], T[sx + 2][sy + 1]), fmaxf(T[sx + 1][sy + 2], T[sx + 2][sy + 2]));
            Hs[sx][sy] = fminf(fmaxf(v, lo), hi);
        }
    }
}

// Result of the kernel-predicted filter for the four sub-pixels, as two f16 pairs: pair 0 = sub-pixels (x0,y0),
// (x1,y0); pair 1 = (x0,y1), (x1,y1).
struct LumaFilter {
    __half2 value[2];  // sum(w * Y') / sum(w)
    __half2 eMax[2];   // largest exponent over the 12 taps
    __half2 yMax[2];   // Y' of that tap
};

// 12 taps of the tile's Y' (4 lines along axis A, 3 taps along B following the slope e3) weighted by
// exp2(e0 dA^2 + e2 dA dB + e1 dB^2) at each sub-pixel. A is y when e4 == 0, x otherwise.
__device__ __forceinline__ LumaFilter lumaFilter(const uint2* tile, __half cA, __half cB, const __half subA[4],
                                                 const __half subB[4], const uint4& e, bool aIsY)
{
    const __half2 e0 = __half2half2(lowHalf(e.x)), e1 = __half2half2(highHalf(e.x));
    const __half2 e2 = __half2half2(lowHalf(e.y));
    const __half e3 = highHalf(e.y);
    const __half one = __float2half_rn(1.0f);
    __half2 sA[2] = {__halves2half2(subA[0], subA[1]), __halves2half2(subA[2], subA[3])};
    __half2 sB[2] = {__halves2half2(subB[0], subB[1]), __halves2half2(subB[2], subB[3])};
    __half2 sumY[2], sumW[2], eMax[2], yMax[2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        sumY[k] = sumW[k] = __float2half2_rn(0.0f);
        eMax[k] = __half2half2(__ushort_as_half(0xFC00));  // -inf: the first tap always wins
        yMax[k] = sumY[k];
    }
    __half a0 = __hsub(hfloor(cA), one);
    __half line0 = __hfma(__hsub(a0, cA), e3, cB);
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        __half aR = __hadd(a0, __int2half_rn(r));
        __half bStart = __hsub(hrint(__hfma(__int2half_rn(r), e3, line0)), one);
        int ai = __half2int_rz(aR), bi = __half2int_rz(bStart);
#pragma unroll
        for (int t = 0; t < 3; ++t) {
            __half bT = __hadd(bStart, __int2half_rn(t));
            int row = aIsY ? ai : bi + t, col = aIsY ? bi + t : ai;
            __half2 y2 = __half2half2(lowHalf(tile[row * kTile + col].x));
            __half2 aR2 = __half2half2(aR), bT2 = __half2half2(bT);
#pragma unroll
            for (int k = 0; k < 2; ++k) {
                __half2 dA = __hsub2(aR2, sA[k]), dB = __hsub2(bT2, sB[k]);
                __half2 E = __hmul2(e0, __hmul2(dA, dA));
                E = __hfma2(__hmul2(e2, dA), dB, E);
                E = __hfma2(__hmul2(e1, dB), dB, E);
                __half2 w = h2exp2(E);
                sumY[k] = __hfma2(w, y2, sumY[k]);
                sumW[k] = __hadd2(sumW[k], w);
                // Strict >: the first of equal maxima stays. Per lane (no packed comparison).
                bool gtLo = __hgt(__low2half(E), __low2half(eMax[k]));
                bool gtHi = __hgt(__high2half(E), __high2half(eMax[k]));
                eMax[k] = __halves2half2(gtLo ? __low2half(E) : __low2half(eMax[k]),
                                         gtHi ? __high2half(E) : __high2half(eMax[k]));
                yMax[k] = __halves2half2(gtLo ? __low2half(y2) : __low2half(yMax[k]),
                                         gtHi ? __high2half(y2) : __high2half(yMax[k]));
            }
        }
    }
    LumaFilter f;
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        f.value[k] = __h2div(sumY[k], sumW[k]);
        f.eMax[k] = eMax[k];
        f.yMax[k] = yMax[k];
    }
    return f;
}

// Path B tile: the block's render rectangle (origin r3, r4) as range-compressed, exposed YCoCg (f16 x4, row
// pitch 24 texels = 192 bytes) and depth (row pitch 96 bytes), the 256 threads striding over it.
__device__ __forceinline__ void loadTile(const OutputParams& p, uint2* sColor, float* sDepth, int r3, int r4,
                                         int tileW, int tileH, float f1)
{
    const int t = threadIdx.y * 16 + threadIdx.x;
    for (int idx = t; idx < tileW * tileH; idx += 256) {
        int col = idx % tileW, row = idx / tileW;
        int x = col + r3, y = row + r4;
        float4 c = fetch(p.color, clampCoord(x, p.colorOrigin.x, p.colorMax.x),
                         clampCoord(y, p.colorOrigin.y, p.colorMax.y));
        float R = fmaxf(c.x, 0.0f), G = fmaxf(c.y, 0.0f), B = fmaxf(c.z, 0.0f);
        float Y = 0.25f * R + 0.5f * G + 0.25f * B;
        float Co = 0.5f * R - 0.5f * B;
        float Cg = 0.5f * G - 0.25f * R - 0.25f * B;
        float L = f1 * Y;
        float k = compressK(L);
        __half2 yc = __floats2half2_rn(L * k, f1 * Co * k);
        __half2 ga = __floats2half2_rn(f1 * Cg * k, c.w);
        sColor[row * kTile + col] = make_uint2(asU32(yc), asU32(ga));
        sDepth[row * kTile + col] = fetch(p.depth, clampCoord(x, p.depthOrigin.x, p.depthMax.x),
                                          clampCoord(y, p.depthOrigin.y, p.depthMax.y)).x;
    }
}

// Current colour at tile position (u, v): f16 bilinear, weights (1-fx)(1-fy), fx(1-fy), (1-fx)fy, fx fy in an
// f16x2 FMA chain over the pairs (Y', Co') and (Cg', alpha).
__device__ __forceinline__ void bilinearTile(const uint2* sColor, __half ucx, __half ucy, __half2& curYC,
                                             __half2& curGA)
{
    const __half one = __float2half_rn(1.0f);
    __half icx = hfloor(ucx), icy = hfloor(ucy);
    __half fx = __hsub_sat(ucx, icx), fy = __hsub_sat(ucy, icy);
    const uint2* t00 = &sColor[__half2int_rz(icy) * kTile + __half2int_rz(icx)];
    __half ofx = __hsub(one, fx), ofy = __hsub(one, fy);
    __half2 w00 = __half2half2(__hmul(ofx, ofy)), w10 = __half2half2(__hmul(fx, ofy));
    __half2 w01 = __half2half2(__hmul(ofx, fy)), w11 = __half2half2(__hmul(fx, fy));
    curYC = __hmul2(asHalf2(t00[0].x), w00);
    curGA = __hmul2(asHalf2(t00[0].y), w00);
    curYC = __hfma2(asHalf2(t00[1].x), w10, curYC);
    curGA = __hfma2(asHalf2(t00[1].y), w10, curGA);
    curYC = __hfma2(asHalf2(t00[kTile].x), w01, curYC);
    curGA = __hfma2(asHalf2(t00[kTile].y), w01, curGA);
    curYC = __hfma2(asHalf2(t00[kTile + 1].x), w11, curYC);
    curGA = __hfma2(asHalf2(t00[kTile + 1].y), w11, curGA);
}

// Confidence of each sub-pixel: high when it lies on a tap line (distance along B, slope e3) and on a tap (along
// A); returns the mean of the four.
__device__ __forceinline__ __half confidence(const __half subA[4], const __half subB[4], __half e3, __half e5,
                                             __half e6, __half kA, __half kB, __half conf[4])
{
    const __half four5 = __float2half_rn(4.5f);
    __half confSum = __float2half_rn(0.0f);
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        __half dA = __hsub(hrint(subA[s]), subA[s]);
        __half line = __hfma(dA, e3, subB[s]);
        __half dB = __habs(__hsub(hrint(line), line));
        __half cB = __hfma_sat(dB, kB, four5), cA = __hfma_sat(__habs(dA), kA, four5);
        conf[s] = __hmul(__hfma(cA, e5, e6), cB);
        confSum = __hadd(confSum, conf[s]);
    }
    return __hmul(__float2half_rn(0.25f), confSum);
}

// Motion at the nearest render pixel, or at its closest diagonal neighbour (largest inverted depth, strict >,
// in the order centre, (-1,-1), (+1,-1), (-1,+1), (+1,+1)) when the centre lies behind a diagonal pair.
__device__ __forceinline__ float4 dilatedMotion(const OutputParams& p, const float* sDepth, int ix, int iy, int r3,
                                                int r4)
{
    const int tc = (iy - r4) * kTile + (ix - r3);
    float d0 = sDepth[tc];
    float dmm = sDepth[tc - kTile - 1], dpm = sDepth[tc - kTile + 1];
    float dmp = sDepth[tc + kTile - 1], dpp = sDepth[tc + kTile + 1];
    int dx = 0, dy = 0;
    if (d0 < (dmm + dpp) * 0.5f - 0.001f * d0 || d0 < (dpm + dmp) * 0.5f - 0.001f * d0) {
        float best = d0;
        if (dmm > best) { best = dmm; dx = -1; dy = -1; }
        if (dpm > best) { best = dpm; dx = 1; dy = -1; }
        if (dmp > best) { best = dmp; dx = -1; dy = 1; }
        if (dpp > best) { dx = 1; dy = 1; }
    }
    return fetch(p.motion, clampCoord(ix + dx, p.motionOrigin.x, p.motionMax.x),
                 clampCoord(iy + dy, p.motionOrigin.y, p.motionMax.y));
}

// The colour stores of the P90 == 0 path: history colour (S288), token grid (S304), final output (S312).
__device__ __forceinline__ void storeTails(const OutputParams& p, int px, int py, float Nm, float Yn, float Con,
                                          float Cgn, float f367, float alpha, float f1)
{
    // History colour: luma clamped at 0 and chroma scaled down until every RGB channel is >= -1e-5.
    float Yh = fmaxf(Nm, 0.0f), lim = Yh;
    if (Cgn - 1e-5f < -Yh) lim = 1e-5f - Cgn;
    if (Con - Cgn - 1e-5f < -lim) lim = Cgn - Con + 1e-5f;
    if (-Con - Cgn - 1e-5f < -lim) lim = Con + Cgn + 1e-5f;
    float sc = lim <= Yh ? 1.0f : Yh / lim;
    storeRgba16f(p.historyOut, px, py, Yh, Con * sc, Cgn * sc, __saturatef(f367), cudaBoundaryModeZero);

    // Token grid: output pixel coordinates double as token coordinates.
    if ((unsigned)px < p.tokensX && (unsigned)py < p.tokensY) {
        const __half* T = p.head + (size_t)(py * p.tokensX + px) * 40;
        float m[4], sum2 = 0.0f;
#pragma unroll
        for (int s = 0; s < 4; ++s) {
            float acc = 0.0f;
#pragma unroll
            for (int k = 3; k < 8; ++k) acc += __half2float(T[s * 10 + k]);
            m[s] = 0.2f * acc;
            sum2 += m[s] * m[s];
        }
        float n = rsqrtf(sum2 + 1.0f);
        surf2Dwrite(make_float4(m[0] * n, m[1] * n, m[2] * n, m[3] * n), p.tokenOut, px * 16, py);
    }

    // Final output: expand back to linear, undo the exposure, YCoCg -> RGB.
    float g = p.altTail == 0 ? expandFactor(Yn) / f1 : 1.0f;  // P91 != 0: not analysed; stays compressed
    float Y = Yn * g, Co = Con * g, Cg = Cgn * g;
    if ((unsigned)px < p.outSize.x && (unsigned)py < p.outSize.y)
        storeRgba16f(p.finalOut, p.outOrigin.x + px, p.outOrigin.y + py, Y + Co - Cg, Y + Cg, Y - Co - Cg,
                     alpha, cudaBoundaryModeTrap);
}

extern "C" __global__ void __launch_bounds__(256) k_output(const OutputParams p)
{
    __shared__ uint2 sColor[kTile * kTile];  // (Y', Co') and (Cg', alpha) as f16 pairs
    __shared__ float sDepth[kTile * kTile];

    // Exposure: a zero texel means "no exposure" (1).
    float eA = tex2D<float>(p.exposureCur, 0.5f, 0.5f);
    float eB = tex2D<float>(p.exposurePrev, 0.5f, 0.5f);
    if (eA == 0.0f) eA = 1.0f;
    if (eB == 0.0f) eB = 1.0f;
    float expCur = p.exposureScale * eA, expPrev = p.exposureScale * eB;
    float f1 = p.exposureMul * expPrev;  // exposure applied to the current colour
    if (f1 == 0.0f) f1 = 1.0f;
    float f2 = expPrev / expCur;  // re-exposure of the history

    // Render-space rectangle this block reads, 4 texels of margin (the luma filter reaches 3.5 texels out).
    const int bx = 16 * blockIdx.x, by = 16 * blockIdx.y;
    const int r3 = (int)roundf((bx + 0.5f) * p.renderPerOutput.x + p.renderOffset.x) - 4;
    const int r4 = (int)roundf((by + 0.5f) * p.renderPerOutput.y + p.renderOffset.y) - 4;
    const int r5 = (int)roundf((bx + 15.5f) * p.renderPerOutput.x + p.renderOffset.x) + 4;
    const int r6 = (int)roundf((by + 15.5f) * p.renderPerOutput.y + p.renderOffset.y) + 4;
    const int tileW = r5 - r3 + 1, tileH = r6 - r4 + 1;
    // Path A (the rectangle does not fit in the 24x24 tile) is not in the notes; such a block writes nothing.
    // The test is the same for every thread of the block, so no thread misses the barrier.
    if (!(r5 - r3 < kTile && r6 - r4 < kTile)) return;

    loadTile(p, sColor, sDepth, r3, r4, tileW, tileH, f1);
    __syncthreads();

    const int px = bx + threadIdx.x, py = by + threadIdx.y;

    // Network head: one token per 4x4 output pixels, 4 sub-blocks of 10 channels.
    const int tokX = (int)(px * p.tokenScale.x) / 2, tokY = (int)(py * p.tokenScale.y) / 2;
    const int sub = ((int)(py * 0.5f) & 1) * 2 + ((int)(px * 0.5f) & 1);
    const __half* H = p.head + ((size_t)(tokY * p.tokensX + tokX) * 40 + sub * 10);
    float hx = 0.5f * __half2float(H[9]);  // sigmoid(a9) = .5 + .5 tanh(a9 / 2), Pade tanh
    float blendSig = hx < -3.0f ? 0.0f
                   : hx > 3.0f  ? 1.0f
                                : 0.5f + 0.5f * hx * (hx * hx + 27.0f) / (9.0f * hx * hx + 27.0f);

    // Nearest render pixel and depth dilation: take the closest (largest inverted depth) diagonal neighbour
    // when the centre is behind both diagonals' average.
    const float cx = px + 0.5f, cy = py + 0.5f;
    const int ix = (int)roundf(cx * p.renderPerOutputNear.x + p.renderOffset.x);
    const int iy = (int)roundf(cy * p.renderPerOutputNear.y + p.renderOffset.y);
    float4 mv = dilatedMotion(p, sDepth, ix, iy, r3, r4);
    const float qx = cx + p.mvScale.x * (mv.x + p.mvOffset.x);
    const float qy = cy + p.mvScale.y * (mv.y + p.mvOffset.y);
    const float vx = qx * p.validUvScale.x, vy = qy * p.validUvScale.y;
    bool offScreenX = p.resetHistory != 0 || vx < 0.0f || vx > 1.0f;

    float4 hist = tex2DLod<float4>(p.history, qx * p.historyUvScale.x, qy * p.historyUvScale.y, 0.0f);
    float Hs[2][2];
    hiresHistory(p, qx, qy, Hs);
    // Re-expose the history luma to the current exposure and compress it again.
#pragma unroll
    for (int sx = 0; sx < 2; ++sx)
#pragma unroll
        for (int sy = 0; sy < 2; ++sy) {
            float Lh = f2 * expandG(Hs[sx][sy]);
            Hs[sx][sy] = Lh * compressK(Lh);
        }
    bool historyInvalid = offScreenX || vy < 0.0f || vy > 1.0f;

    float sig = __saturatef(blendSig);
    bool nonfinite = !(fabsf(Hs[0][0] * Hs[1][0] + Hs[0][1] * Hs[1][1] + hist.x * hist.y + sig * hist.z) < INFINITY);
    bool noHistory = historyInvalid || nonfinite;
    float s1 = noHistory ? 1.0f : sig, ha = noHistory ? 1.0f : hist.w;
    float f343 = s1 * (1.0f - ha) + ha;
    float f344 = ha * (1.0f - s1 * s1) + s1 * s1;

    // Current colour: f16 bilinear from the tile at the pixel centre.
    const __half one = __float2half_rn(1.0f);
    __half ucx = __float2half_rn(cx * p.renderPerOutput.x + p.renderOffset.x - r3);
    __half ucy = __float2half_rn(cy * p.renderPerOutput.y + p.renderOffset.y - r4);
    __half2 curYC, curGA;
    bilinearTile(sColor, ucx, ucy, curYC, curGA);

    // A bright current pixel anywhere in the 2x2 quad (lanes ^16 = next row, ^1 = next column) sharpens the
    // kernel choice for the whole quad.
    unsigned quad = __hgt(__low2half(curYC), __float2half_rn(0.8f)) ? 1u : 0u;
    quad |= __shfl_xor_sync(0xffffffffu, quad, 16);
    quad |= __shfl_xor_sync(0xffffffffu, quad, 1);

    __half m0 = __hdiv(H[0], __hadd(one, __habs(H[0])));  // softsign of the two orientation channels
    __half m1 = __hdiv(H[1], __hadd(one, __habs(H[1])));
    float Hq[4], hc[3];
#pragma unroll
    for (int s = 0; s < 4; ++s) Hq[s] = noHistory ? 0.0f : Hs[s & 1][s >> 1];
    hc[0] = noHistory ? 0.0f : hist.x;
    hc[1] = noHistory ? 0.0f : hist.y;
    hc[2] = noHistory ? 0.0f : hist.z;
    float f367 = fmaxf(f344 / (f344 + 1.0f), p.minConfidence);

    // LUT entry: flags in bits 8..10, the quantised orientation (m0, m1) in bits 0..7.
    int i0 = min(max(__half2int_rn(__hmul(m0, p.lutIndexScale)) + 8, 0), 15);
    int i1 = min(max(__half2int_rn(__hmul(m1, p.lutIndexScale)) + 8, 0), 15);
    unsigned flagA = (sig < 0.25f && f343 < 0.25f) ? 1u : 0u;
    unsigned flagB = (p.lutThreshold > f343) ? 1u : 0u;
    unsigned lutIdx = ((quad << 2 | flagA << 1 | flagB) << 8) | (unsigned)(i0 << 4 | i1);
    const uint4 e = p.lut[lutIdx];
    const bool aIsY = (e.z & 0xFFFFu) == 0;
    const __half e3 = highHalf(e.y), e5 = highHalf(e.z), e6 = lowHalf(e.w);

    __half subX[2], subY[2];
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        subX[j] = __float2half_rn((2 * px + j + 0.5f) * p.renderPerHires.x + p.renderOffset.x - r3);
        subY[j] = __float2half_rn((2 * py + j + 0.5f) * p.renderPerHires.y + p.renderOffset.y - r4);
    }
    __half subA[4], subB[4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        subA[s] = aIsY ? subY[s >> 1] : subX[s & 1];
        subB[s] = aIsY ? subX[s & 1] : subY[s >> 1];
    }
    LumaFilter lf = lumaFilter(sColor, aIsY ? ucy : ucx, aIsY ? ucx : ucy, subA, subB, e, aIsY);

    __half fsel[4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        const __half2& v = lf.value[s >> 1];
        __half F = (s & 1) ? __high2half(v) : __low2half(v);
        __half em = (s & 1) ? __high2half(lf.eMax[s >> 1]) : __low2half(lf.eMax[s >> 1]);
        __half ym = (s & 1) ? __high2half(lf.yMax[s >> 1]) : __low2half(lf.yMax[s >> 1]);
        fsel[s] = __hlt(em, __float2half_rn(-12.0f)) ? ym : F;  // every weight negligible: nearest tap
    }

    // The confidence slopes swap with the orientation (A is y when e4 == 0).
    const __half kA = aIsY ? p.confK192 : p.confK190, kB = aIsY ? p.confK190 : p.confK192;
    __half conf[4];
    __half avg = confidence(subA, subB, e3, e5, e6, kA, kB, conf);
    __half v = __float2half_rn(f343);
    __half v2 = __hfma(__float2half_rn(0.9f), v, __float2half_rn(0.1f));
    __half lo = __hmul(__hsub(v, p.blendBias), p.blendScale);
    __half hi = __hmul(__hsub(v2, p.blendBias), p.blendScale);
    __half alphaC = __hfma_sat(avg, __hsub(v2, hi), hi);

    __half Yb = __low2half(curYC), Cob = __high2half(curYC), Cgb = __low2half(curGA), ab = __high2half(curGA);
    __half prod = __hmul(__hmul(__hmul(__hmul(Yb, fsel[0]), fsel[1]), fsel[2]), fsel[3]);
    bool nonfinite2 = !__hlt(__habs(prod), __ushort_as_half(0x7C00));
    if (nonfinite2) {
        Yb = Cob = Cgb = ab = __float2half_rn(0.0f);
#pragma unroll
        for (int s = 0; s < 4; ++s) fsel[s] = Yb;
    }

    // New hi-res luma per sub-pixel, stored at 2x resolution. Stores past the surface (the last block row when
    // the height is not a multiple of 16) are dropped: the notes show no guard on these stores.
    float N[4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        float bl = __half2float(__hfma_sat(conf[s], __hsub(v, lo), lo));
        N[s] = Hq[s] + bl * (__half2float(fsel[s]) - Hq[s]);
        surf2Dwrite(__half_as_ushort(__float2half_rn(hiresEncode(N[s]))), p.hiresOut, (2 * px + (s & 1)) * 2,
                    2 * py + (s >> 1), cudaBoundaryModeZero);
    }

    // Colour: blend current and history chroma, then rescale the chroma ratio to the new luma.
    float aC = __half2float(alphaC);
    float CY = aC * __half2float(Yb) + (1.0f - aC) * hc[0];
    float CCo = aC * __half2float(Cob) + (1.0f - aC) * hc[1];
    float CCg = aC * __half2float(Cgb) + (1.0f - aC) * hc[2];
    float Nm = 0.25f * (N[0] + N[1] + N[2] + N[3]);
    float Yn = Nm, Con = CCo / fmaxf(CY, 1e-5f) * Nm, Cgn = CCg / fmaxf(CY, 1e-5f) * Nm;
    if (p.altPath != 0) return;  // P90 != 0: not analysed in the notes; this re-creation stops here
    if (p.debugColours != 0 && (nonfinite || nonfinite2)) {  // debug colour values are this re-creation's
        Yn = 0.5f; Con = 0.25f; Cgn = -0.25f;
    }

    storeTails(p, px, py, Nm, Yn, Con, Cgn, f367, __half2float(ab), f1);
}
