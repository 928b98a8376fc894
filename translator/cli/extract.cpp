// ptx2glsl extract: the PTX (and, asked, the ELF) entries of binaries, named as cuobjdump names them.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "binary.h"
#include "cli.h"
#include "files.h"

namespace p2g::cli {

namespace {

const char* kHelp =
    "usage: ptx2glsl extract FILE... (-o DIR | --list) [--elf]\n"
    "  FILE      ELF host binaries (shared objects, executables, objects), Windows PE (DLL, EXE), .fatbin files\n"
    "            (nvcc -fatbin), .cubin and .ptx files; told apart by their bytes, not their names\n"
    "  -o DIR    write every PTX entry, decompressed (LZ4 or zstd), to DIR/<name>; the names are cuobjdump's\n"
    "            (`cuobjdump -xptx all`): <file without its last extension>.<n>.sm_<arch>.ptx\n"
    "  --elf     also write the ELF entries (cubins), DIR/<file>.<n>.sm_<arch>.cubin\n"
    "  --list    print every entry: cuobjdump's line (`cuobjdump -lptx -lelf`: \"PTX file    1: NAME\"), then\n"
    "            its arch, PTX ISA or code version, compression, sizes and container; with -o also writes\n"
    "Malformed or truncated containers are refused with the file, the byte offset and what was expected there.\n"
    "Exit status 0 on success; 1 when any file cannot be read (nothing is written then); 2 on bad usage.\n";

std::string hex(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

void printListing(const fatbin::BinaryListing& b) {
  printf("%s: %s, %zu fatbin container(s), %zu entr%s\n", b.path.c_str(), b.format.c_str(), b.containers.size(),
         b.entries.size(), b.entries.size() == 1 ? "y" : "ies");
  for (size_t i = 0; i < b.containers.size(); ++i)
    printf("  container %zu: %s at %s, %llu bytes\n", i + 1, b.containers[i].where.c_str(),
           hex(b.containers[i].offset).c_str(), (unsigned long long)b.containers[i].size);
  for (auto& ne : b.entries) {
    const fatbin::Entry& e = ne.entry;
    std::string ver = e.kind == fatbin::Kind::Ptx ? "PTX ISA " : "code ";
    ver += std::to_string(e.major) + "." + std::to_string(e.minor);
    std::string size = e.compression == fatbin::Compression::None
                           ? std::to_string(e.storedSize) + " bytes"
                           : std::string(fatbin::compressionName(e.compression)) + " " +
                                 std::to_string(e.storedSize) + " -> " + std::to_string(e.decompressedSize) + " bytes";
    std::string where = b.wholeFileIsPayload ? "the whole file"
                                             : "container " + std::to_string(e.container + 1) + ", entry at " +
                                                   hex(e.headerOffset);
    printf("%s  sm_%u  %s  %s  %s%s%s\n", fatbin::listingLine(ne).c_str(), e.arch,
           b.wholeFileIsPayload && e.major == 0 && e.kind == fatbin::Kind::Elf ? "-" : ver.c_str(),
           b.wholeFileIsPayload ? (std::to_string(e.storedSize) + " bytes").c_str() : size.c_str(), where.c_str(),
           e.options.empty() ? "" : ", ptxas options: ", e.options.c_str());
  }
}

}  // namespace

int cmdExtract(int argc, char** argv) {
  std::vector<std::string> files;
  std::string outDir;
  bool list = false, elf = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      fputs(kHelp, stdout);
      return 0;
    }
    if (a == "-o") {
      if (i + 1 >= argc) {
        fprintf(stderr, "ptx2glsl extract: -o needs a folder\n");
        return 2;
      }
      outDir = argv[++i];
    } else if (a == "--list") list = true;
    else if (a == "--elf") elf = true;
    else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "ptx2glsl extract: unknown option '%s'\n%s", a.c_str(), kHelp);
      return 2;
    } else files.push_back(a);
  }
  if (files.empty() || (outDir.empty() && !list)) {
    fputs(kHelp, stderr);
    return 2;
  }
  Staged staged;
  std::map<std::string, std::string> writtenFrom;  // output name -> input file
  int failed = 0;
  for (auto& path : files) {
    fatbin::BinaryListing b;
    std::string err;
    if (!fatbin::readBinary(path, b, err)) {
      fprintf(stderr, "%s\n", err.c_str());
      ++failed;
      continue;
    }
    if (list) printListing(b);
    bool ok = true;
    for (size_t i = 0; i < b.entries.size() && ok; ++i) {
      const auto& ne = b.entries[i];
      // --list decompresses every entry too: a listing of a container whose data is corrupt is an error.
      bool write = !outDir.empty() && (ne.entry.kind == fatbin::Kind::Ptx || (elf && ne.entry.kind == fatbin::Kind::Elf));
      if (!write && !list) continue;
      std::string data;
      if (!fatbin::entryPayload(b, i, data, err)) {
        fprintf(stderr, "%s\n", err.c_str());
        ok = false;
        break;
      }
      if (!write) continue;
      auto [it, fresh] = writtenFrom.emplace(ne.name, path);
      if (!fresh) {
        fprintf(stderr, "%s: error: entry %s would overwrite the one of the same name from %s\n", path.c_str(),
                ne.name.c_str(), it->second.c_str());
        ok = false;
        break;
      }
      staged.add(ne.name, std::move(data));
    }
    if (!ok) ++failed;
  }
  if (failed) {
    fprintf(stderr, "ptx2glsl extract: %d file(s) failed; nothing written\n", failed);
    return 1;
  }
  if (outDir.empty()) return 0;
  std::string err;
  if (!staged.commit(outDir, err)) {
    fprintf(stderr, "ptx2glsl extract: error: %s\n", err.c_str());
    return 1;
  }
  if (!list) fprintf(stderr, "ptx2glsl extract: %zu file(s) written to %s\n", staged.files().size(), outDir.c_str());
  return 0;
}

}  // namespace p2g::cli
