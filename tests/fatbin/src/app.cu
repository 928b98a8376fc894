// A small CUDA executable for the extract tests: the corpus kernel scalar_params and a main() that only asks the
// runtime how many devices there are (it is never run by the tests; its ELF sections are what is read).
#include <cstdio>
#include <cuda_runtime.h>
#include "../../../ptx_corpus/basic/scalar_params/kernel.cu"

int main()
{
    int n = 0;
    cudaGetDeviceCount(&n);
    printf("%d\n", n);
    return 0;
}
