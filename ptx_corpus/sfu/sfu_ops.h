// Instruction ids shared by the GPU probe (sfu_probe.cu) and the software models, so that a model header can be
// verified on the GPU over all inputs with the same numbering the collected data uses.
#pragma once

enum SfuOp32 {
  RCP_FTZ, RCP, RSQRT_FTZ, RSQRT, SQRT_FTZ, SQRT, EX2_FTZ, EX2, LG2_FTZ, LG2,
  SIN_FTZ, SIN, COS_FTZ, COS, TANH, NUM_OP32
};
static const char* const kOp32Name[NUM_OP32] = {
  "rcp.approx.ftz.f32", "rcp.approx.f32", "rsqrt.approx.ftz.f32", "rsqrt.approx.f32",
  "sqrt.approx.ftz.f32", "sqrt.approx.f32", "ex2.approx.ftz.f32", "ex2.approx.f32",
  "lg2.approx.ftz.f32", "lg2.approx.f32", "sin.approx.ftz.f32", "sin.approx.f32",
  "cos.approx.ftz.f32", "cos.approx.f32", "tanh.approx.f32"};

// 16-bit scalar forms; the .x2 forms are checked lane by lane against these.
enum SfuOp16 { EX2_F16, EX2_BF16, TANH_F16, TANH_BF16, NUM_OP16 };
static const char* const kOp16Name[NUM_OP16] = {
  "ex2.approx.f16", "ex2.approx.ftz.bf16", "tanh.approx.f16", "tanh.approx.bf16"};
