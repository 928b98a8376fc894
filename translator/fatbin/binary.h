// From a file to its GPU code: which fatbin containers a host binary holds and what each entry is called.
//
// Formats (told apart by their first bytes, not by the file name):
//   ELF host objects, shared objects, executables: the containers of the sections `.nv_fatbin` (what the CUDA
//     runtime registers; include/fatbinary_section.h names it) and `__nv_relfatbin` (relocatable device code,
//     `-rdc`), in file order. `.nvFatBinSegment` holds only the runtime's wrapper (magic 0x466243B1) that points
//     at them, and is not read.
//   ELF for CUDA (e_machine 190, a .cubin): one ELF entry, its arch from e_flags.
//   Windows PE (DLL, EXE): MSVC's linker truncates section names to 8 characters (`.nv_fatb`), and a program may
//     keep a fatbin in any data section, so every section that is not code is scanned for a container header
//     (magic, version 1, header size 16) at 8-byte alignment; a header found so is then read strictly.
//   A bare fatbin (`nvcc -fatbin`): containers from byte 0 to the end.
//   PTX text (the first token is `.version`, after comments): one PTX entry, the file itself.
// Entry names follow cuobjdump's: `<file name without its last extension>.<n>.sm_<arch>.ptx` / `.cubin`, n
// counting PTX and ELF entries separately, 1-based, in file order.
#pragma once
#include <string>
#include <vector>

#include "fatbin.h"

namespace p2g::fatbin {

struct NamedEntry {
  Entry entry;
  std::string name;        // cuobjdump's name, "libk.2.sm_90.ptx"
  int number = 0;          // n of "PTX file n" / "ELF file n"
};

struct BinaryListing {
  std::string path;
  std::string format;      // "ELF shared object", "PE DLL", "fatbin", "cubin", "PTX", ...
  std::string bytes;       // the whole file
  std::vector<Container> containers;
  std::vector<NamedEntry> entries;
  bool wholeFileIsPayload = false;  // cubin and PTX inputs: the entry is the file itself
};

enum class FileKind { Unknown, Elf, CudaElf, Pe, Fatbin, Ptx, Archive };

// What `bytes` looks like (no parsing beyond the magic numbers and the first PTX token).
FileKind sniff(const std::string& bytes);

// Reads `path` and lists its containers and entries. Returns false with `err` naming the problem and its offset
// ("FILE: error: at byte offset N (0xN): expected ..., found ..."). A host binary without any fatbin lists no
// entries and is not an error.
bool readBinary(const std::string& path, BinaryListing& out, std::string& err);
// The same for bytes already in memory (`path` names them in messages and entry names).
bool readBinaryBytes(const std::string& path, std::string bytes, BinaryListing& out, std::string& err);

// The decompressed payload of entry `i` (PTX text or ELF bytes).
bool entryPayload(const BinaryListing& b, size_t i, std::string& out, std::string& err);

// cuobjdump's listing line: "PTX file    1: k.1.sm_90.ptx".
std::string listingLine(const NamedEntry& e);

}  // namespace p2g::fatbin
