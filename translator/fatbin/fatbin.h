// NVIDIA fatbin containers: the layout, read from the bytes nvcc 13.0 writes (tests/fatbin/make_data.sh builds
// the samples), and checked against what public notes on the format say (cuda-fatbin-decompression, the
// `fatbinary` Rust crate's reader, nvopen-tools' FORMAT_SPECIFICATION.md). All numbers are little-endian.
//
// Container (16-byte header, then entries back to back until `headerSize + fatSize`):
//   +0 u32 magic 0xBA55ED50   +4 u16 version (1)   +6 u16 header size (16)   +8 u64 fat size (bytes after the header)
// Entry (a header of `headerSize` bytes, then `payloadSize` bytes of payload; the next entry follows):
//   +0 u16 kind (1 PTX, 2 ELF)   +2 u16 (0x0101 in every sample)   +4 u32 header size (64, 80 for PTX, 96 ...)
//   +8 u64 payload size (a multiple of 8 for nvcc's entries, the data NUL-padded)
//   +16 u32 compressed size (0: not compressed)   +20 u32 offset of the options record from the entry (PTX: 64)
//   +24 u16 minor  +26 u16 major: the PTX ISA version of a PTX entry (9.0), the code version of an ELF one (1.8)
//   +28 u32 arch (the NN of sm_NN)   +32 u32 identifier offset  +36 u32 identifier length   +40 u64 flags
//   +48 u64 (0)   +56 u64 size after decompression (0 when not compressed)
//   options record at `options offset`: u32 offset (from the entry) and u32 size of the ptxas option text.
// Flags: 0x1 64-bit, 0x2 debug, 0x10 Linux host, 0x40 Windows host, 0x2000 LZ4 (a raw LZ4 block, what
// `nvcc --compress-mode=speed` writes), 0x8000 zstd (a zstd frame: `default`, `balance` and `size`; `size` also
// compresses ELF entries). `--compress-mode=none` leaves both clear.
// A PTX payload is the module text followed by a NUL (the decompressed size counts it) and, uncompressed, by the
// NUL padding up to the payload size: the PTX ends at its first NUL.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace p2g::fatbin {

constexpr uint32_t kMagic = 0xBA55ED50u;
constexpr uint64_t kFlagLz4 = 0x2000, kFlagZstd = 0x8000;
// A decompressed size above this is taken for a corrupt header rather than allocated.
constexpr uint64_t kMaxDecompressed = 1ull << 31;

enum class Kind { Ptx, Elf, Other };
enum class Compression { None, Lz4, Zstd };

const char* compressionName(Compression c);

struct Entry {
  Kind kind = Kind::Other;
  uint16_t rawKind = 0;
  uint32_t arch = 0;               // sm_NN
  uint16_t major = 0, minor = 0;   // PTX ISA version (PTX) or code version (ELF)
  uint64_t flags = 0;
  Compression compression = Compression::None;
  uint64_t headerOffset = 0;       // offsets are in the whole file's bytes
  uint64_t dataOffset = 0;
  uint64_t storedSize = 0;         // bytes of payload in the file (the compressed size when compressed)
  uint64_t decompressedSize = 0;   // from the header; 0 when not compressed
  std::string options;             // ptxas options recorded for a PTX entry
  std::string identifier;
  int container = 0;               // index into the file's containers
};

struct Container {
  uint64_t offset = 0;             // of the header, in the file
  uint64_t size = 0;               // 16 + fat size
  std::string where;               // "fatbin file", "section .nv_fatbin", ...
};

// Parses the containers found in `bytes[begin, end)` (all of them back to back, zero padding between them
// allowed up to 8-byte alignment). `strict`: a region that must hold only containers (a .nv_fatbin section, a
// .fatbin file); otherwise `begin` is a candidate found by a magic scan and exactly one container is read.
// Appends containers and entries; on malformed input returns false with `err` = "at byte offset N (0xN): expected
// ..., found ..." (offsets in the whole file). `consumed` returns the end of what was read.
bool parseContainers(std::string_view bytes, uint64_t begin, uint64_t end, bool strict, const std::string& where,
                     std::vector<Container>& containers, std::vector<Entry>& entries, uint64_t& consumed,
                     std::string& err);

// True when `bytes` at `at` starts a container header a scan should take: the magic, version 1, header size 16.
bool looksLikeContainer(std::string_view bytes, uint64_t at);

// The payload of `e`, decompressed. For a PTX entry the text up to its first NUL. Errors name the offset.
bool payload(std::string_view bytes, const Entry& e, std::string& out, std::string& err);

// "at byte offset N (0xN)"
std::string at(uint64_t off);

}  // namespace p2g::fatbin
