// nvcc -ptx -O3 -arch=sm_90 kernels/func_ptr.cu -o ptx/func_ptr.ptx
// Indirect calls: a __device__ table of function pointers (a .global .u64 array initialized with function
// addresses), call through a register with a prototype label (call (r), %rd, (a), proto;), and virtual calls.
typedef float (*unary_fn)(float, float);

__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }
__device__ __noinline__ float op_max(float a, float b) { return fmaxf(a, b); }
__device__ __noinline__ float op_pow(float a, float b) { return __powf(fabsf(a), b); }

__device__ unary_fn table[4] = {op_add, op_mul, op_max, op_pow};

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  float s;
  __device__ explicit Square(float v) : s(v) {}
  __device__ float area() const override { return s * s; }
};
struct Circle : Shape {
  float r;
  __device__ explicit Circle(float v) : r(v) {}
  __device__ float area() const override { return 3.14159265f * r * r; }
};

__device__ __noinline__ float apply(const Shape& s) { return s.area(); }

__global__ void dispatch(const int* __restrict__ sel, const float* __restrict__ x, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unary_fn f = table[sel[i] & 3];
  float r = f(x[i], 2.0f);
  unary_fn g = (sel[i] & 4) ? op_add : op_mul;
  r = g(r, x[i]);
  Square sq(x[i]);
  Circle ci(r);
  const Shape* s = (sel[i] & 8) ? static_cast<const Shape*>(&sq) : static_cast<const Shape*>(&ci);
  out[i] = r + apply(*s);
}
