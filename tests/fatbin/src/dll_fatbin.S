/* The fatbin of the DLL (dll_main.c); the file comes from the assembler's include path (-Wa,-I). */
        .section .nv_fatbin, "dr"
        .p2align 3
        .globl  p2g_fatbin_data
p2g_fatbin_data:
        .incbin "reduce_default.fatbin"

/* __fatBinC_Wrapper_t (CUDA's include/fatbinary_section.h): magic 0x466243B1, version 1, the data, no file. */
        .section .nvFatBinSegment, "dw"
        .p2align 3
        .long   0x466243b1
        .long   1
        .quad   p2g_fatbin_data
        .quad   0
