/* A Windows DLL around a fatbin nvcc produced (tests/fatbin/make_data.sh): dll_fatbin.S puts the bytes in a
   section named .nv_fatbin (the linker keeps 8 characters of it in the image, as MSVC's linker does), with the
   CUDA runtime's wrapper record in .nvFatBinSegment pointing at them. Never loaded by the tests. */
__declspec(dllexport) int p2g_fatbin_probe(void) { return 1; }
