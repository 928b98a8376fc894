// nvcc -ptx -O3 -arch=sm_90 kernels/recursion.cu -o ptx/recursion.ptx
// Real recursion in PTX: .func with .param arguments and returns calling itself (call.uni (retval), f, (args)),
// a stack frame in .local (__local_depot, %SP/%SPL), and mutual recursion, all within one module.
__device__ __noinline__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

struct Node {
  int left, right, value;
};

__device__ __noinline__ int tree_sum(const Node* nodes, int idx, int depth) {
  if (idx < 0 || depth > 32) return 0;
  int buf[4];
  for (int k = 0; k < 4; ++k) buf[k] = nodes[idx].value * (k + 1);
  int s = buf[idx & 3] + tree_sum(nodes, nodes[idx].left, depth + 1);
  return s + tree_sum(nodes, nodes[idx].right, depth + 1);
}

__device__ __noinline__ double fib(int n) { return n < 2 ? (double)n : fib(n - 1) + fib(n - 2); }

__global__ void recurse(const Node* __restrict__ nodes, const int* __restrict__ args, int* __restrict__ out,
                        double* __restrict__ dout) {
  int i = threadIdx.x;
  int a = args[i] & 3, b = args[i + 32] & 7;
  out[i] = ackermann(a, b) + (is_even((unsigned)args[i]) ? 1 : 0) + tree_sum(nodes, 0, 0);
  dout[i] = fib(args[i] & 15);
}
