#include "files.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "binary.h"

namespace fs = std::filesystem;

namespace p2g::cli {

namespace {

bool writeOne(const fs::path& p, const std::string& data, std::string& err) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  if (ec && !fs::is_directory(p.parent_path())) {
    err = "cannot create '" + p.parent_path().string() + "': " + ec.message();
    return false;
  }
  std::ofstream f(p, std::ios::binary);
  if (f) f.write(data.data(), std::streamsize(data.size()));
  if (f) f.close();
  if (!f) {
    err = "cannot write '" + p.string() + "'";
    return false;
  }
  return true;
}

}  // namespace

bool Staged::commit(const std::string& dir, std::string& err) const {
  std::vector<fs::path> tmps;
  std::string suffix = ".tmp-" + std::to_string(getpid());
  std::set<std::string> seen;
  for (auto& f : files_)
    if (!seen.insert(f.first).second) {  // two outputs of one name: the second would replace the first
      err = "two outputs would be written to '" + (fs::path(dir) / f.first).string() + "'";
      return false;
    }
  bool ok = true;
  for (auto& [rel, data] : files_) {
    fs::path t = fs::path(dir) / (rel + suffix);
    if (!writeOne(t, data, err)) {
      ok = false;
      break;
    }
    tmps.push_back(t);
  }
  if (ok)
    for (size_t i = 0; i < files_.size(); ++i) {
      std::error_code ec;
      fs::rename(tmps[i], fs::path(dir) / files_[i].first, ec);
      if (ec) {
        err = "cannot rename to '" + (fs::path(dir) / files_[i].first).string() + "': " + ec.message();
        ok = false;
        // the files renamed so far stay; the rest are removed below
        tmps.erase(tmps.begin(), tmps.begin() + long(i));
        break;
      }
    }
  if (!ok)
    for (auto& t : tmps) {
      std::error_code ec;
      fs::remove(t, ec);
    }
  return ok;
}

bool checkReplaceable(const std::string& dir, const std::string& marker, std::string& err) {
  std::error_code ec;
  fs::path d(dir);
  if (!fs::exists(d, ec)) return true;
  if (!fs::is_directory(d, ec)) {
    err = "'" + dir + "' exists and is not a folder";
    return false;
  }
  if (!fs::is_empty(d, ec) && !fs::exists(d / marker, ec)) {
    err = "'" + dir + "' is not empty and holds no " + marker + " (not an earlier output): not replaced";
    return false;
  }
  return true;
}

std::string tempFolderFor(const std::string& dir) {
  fs::path d = fs::path(dir).lexically_normal();
  if (d.filename().empty()) d = d.parent_path();
  return d.string() + ".tmp-" + std::to_string(getpid());
}

bool swapFolder(const std::string& tmp, const std::string& dir, std::string& err) {
  std::error_code ec;
  fs::path d = fs::path(dir).lexically_normal();
  if (d.filename().empty()) d = d.parent_path();
  fs::path old = d;
  old += ".old-" + std::to_string(getpid());
  bool had = fs::exists(d, ec);
  if (had) {
    fs::rename(d, old, ec);
    if (ec) {
      err = "cannot move the earlier '" + dir + "' aside: " + ec.message();
      return false;
    }
  }
  fs::rename(tmp, d, ec);
  if (ec) {
    err = "cannot rename '" + tmp + "' to '" + dir + "': " + ec.message();
    std::error_code ec2;
    if (had) fs::rename(old, d, ec2);
    return false;
  }
  if (had) fs::remove_all(old, ec);
  return true;
}

bool writeFileAt(const std::string& path, const std::string& data, std::string& err) {
  return writeOne(fs::path(path), data, err);
}

std::string fnv1a64(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[20];
  snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}

std::string mdCell(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else if (c == '\n') o += "<br>";
    else o += c;
  }
  return o;
}

bool ptxTexts(const std::string& file, std::vector<std::pair<std::string, std::string>>& out, std::string& err) {
  out.clear();
  fatbin::BinaryListing bin;
  if (!fatbin::readBinary(file, bin, err)) return false;
  for (size_t i = 0; i < bin.entries.size(); ++i) {
    if (bin.entries[i].entry.kind != fatbin::Kind::Ptx) continue;
    std::string text;
    if (!fatbin::entryPayload(bin, i, text, err)) return false;
    out.emplace_back(bin.wholeFileIsPayload ? file : file + "#" + bin.entries[i].name, std::move(text));
  }
  return true;
}

}  // namespace p2g::cli
