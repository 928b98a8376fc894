// One case of docs/CASE_FORMAT.md (version 1) loaded into memory, and its validation.
//
// Loading checks everything the case can check alone (names, sizes, files, launch shape); checking against the
// kernel's parameter layout is `validateParams` in params.h, which every runner calls before any launch.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "json.h"
#include "scalar.h"

namespace p2g {

// How a buffer (or a texture/surface's texels) starts out. docs/CASE_INPUTS.md gives the exact bytes.
struct InitSpec {
  enum class Kind { Zero, File, Fill, Iota, Random };
  Kind kind = Kind::Zero;
  std::string file;              // File: path relative to the case directory
  ElemType type = ElemType::U8;  // Fill, Iota, Random
  std::vector<uint8_t> fillBytes;  // Fill: one element, already encoded
  uint64_t seed = 0;             // Random
  bool hasRange = false;         // Random: lo/hi given
  json::Value lo, hi;            // Random: kept as JSON so integer bounds stay exact
};

struct BufferSpec {
  std::string name;
  uint64_t bytes = 0;
  InitSpec init;
};

// A texture or surface (docs/TEXTURES.md; formats, records and checks in images.h).
struct ImageSpec {
  std::string name;
  std::string format;
  uint32_t width = 0, height = 0, depth = 0;  // depth 0 = a 2D image; layers when `layered`
  uint32_t dims = 0;            // optional "dims": 1, 2 or 3 (0 = 3 when depth > 0 and not layered, else 2)
  bool layered = false;         // optional "layered": depth counts layers of 1D/2D images
  InitSpec init;
  std::string filter, address;  // textures only ("point"/"linear", "clamp"/"wrap"/"mirror"/"border")
  bool normalized = false;
};

// A parameter value, or a field of a struct parameter.
struct ParamValue {
  enum class Kind { Buffer, Scalar, Texture, Surface, Struct };
  Kind kind = Kind::Scalar;
  std::string name;                // Buffer/Texture/Surface
  uint64_t offset = 0;             // Buffer: byte offset added to the address
  ElemType type = ElemType::U32;   // Scalar
  std::vector<uint8_t> bytes;      // Scalar: encoded value
  uint32_t at = 0;                 // a struct field's byte offset
  uint32_t structBytes = 0;        // Struct
  std::vector<ParamValue> fields;  // Struct
  std::string where;               // "params[3]" or "params[4].struct.fields[1]", for messages
  // Size of the value in the parameter block (pointers and handles are 8 bytes).
  uint32_t size() const;
};

struct OutputSpec {
  bool surface = false;
  std::string name;
  ElemType type = ElemType::Bits;
};

struct CaseSpec {
  std::string dir;       // as given
  std::string name;      // last path component of dir
  std::string kernel;
  std::string ptx;       // path of the PTX file (dir + "/" + case.json's "ptx", default kernel.ptx)
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamicSharedBytes = 0;
  std::vector<BufferSpec> buffers;
  std::vector<ImageSpec> textures, surfaces;
  std::vector<ParamValue> params;
  std::vector<OutputSpec> outputs;

  const BufferSpec* findBuffer(const std::string& n) const;
  const ImageSpec* findTexture(const std::string& n) const;
  const ImageSpec* findSurface(const std::string& n) const;
  bool usesImages() const { return !textures.empty() || !surfaces.empty(); }
};

// Parses case.json text; `dir` is the case directory (for the ptx path and input files). Errors name the field,
// e.g. "case.json: buffers.x.init.random: unknown type \"f8\"" or "case.json:3:7: expected ':'".
bool parseCase(const std::string& jsonText, const std::string& dir, CaseSpec& out, std::string& err);

// Reads <dir>/case.json and checks the files it names (the PTX exists, init files are readable and no longer
// than their buffer). Returns false with a message naming the case and the field.
bool loadCase(const std::string& dir, CaseSpec& out, std::string& err);

// CUDA's launch limits (block: x,y <= 1024, z <= 64, x*y*z <= 1024; grid: x < 2^31, y,z <= 65535; no zero).
bool checkLaunchShape(const CaseSpec& c, std::string& err);

// Reads a whole file; false on failure.
bool readFile(const std::string& path, std::string& out);
bool writeFile(const std::string& path, const void* data, size_t n, std::string& err);
// mkdir -p.
bool makeDirs(const std::string& path, std::string& err);

}  // namespace p2g
