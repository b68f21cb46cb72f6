// PNG import and export through stb_image / stb_image_write (implementation in libstb).
#include <stb_image.h>
#include <stb_image_write.h>

#include <climits>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"

namespace pl {

namespace {

constexpr unsigned char kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

void append_bytes(void* context, void* data, int size) {
  if (size > 0) static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
}

}  // namespace

GridMap parse_png(const unsigned char* data, size_t size, const std::string& name,
                  const Palette& palette) {
  // stb_image reads many formats; only PNG is promised, and the fewer decoders untrusted bytes
  // reach, the better.
  if (data == nullptr || size < sizeof kPngSignature ||
      std::memcmp(data, kPngSignature, sizeof kPngSignature) != 0)
    throw InputError(name + ": not a PNG file");
  if (size > static_cast<size_t>(INT_MAX)) throw InputError(name + ": PNG file is too large");
  const int len = static_cast<int>(size);

  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(data, len, &w, &h, &comp)) {
    const char* why = stbi_failure_reason();
    throw InputError(name + ": cannot read PNG: " + (why ? why : "unknown error"));
  }
  if (w <= 0 || h <= 0 || w > kMaxMapSide || h > kMaxMapSide) {
    throw InputError(name + ": PNG is " + std::to_string(w) + "x" + std::to_string(h) +
                     " pixels; a map side must be 1.." + std::to_string(kMaxMapSide));
  }
  // Deflate expands at most ~1032:1, so the IDAT data of a file of `size` bytes inflates to at
  // most about 1032 * size bytes of scanlines. A header claiming more is a lie that would make
  // the decoder allocate far more than the input justifies. stbi_info accepted the IHDR, which
  // sits right after the signature: width, height, bit depth, colour type.
  const unsigned long long pixels = static_cast<unsigned long long>(w) * static_cast<unsigned long long>(h);
  {
    static constexpr int kSamples[7] = {1, 0, 3, 1, 2, 0, 4};  // by colour type
    const int depth = size > 25 ? data[24] : 1;
    const int ctype = size > 25 ? data[25] : 0;
    const int samples = ctype >= 0 && ctype < 7 && kSamples[ctype] > 0 ? kSamples[ctype] : 1;
    const unsigned long long row_bytes = (static_cast<unsigned long long>(w) * static_cast<unsigned long long>(depth * samples) + 7) / 8;
    if (row_bytes * static_cast<unsigned long long>(h) > 1040ULL * size + 65536ULL)
      throw InputError(name + ": PNG header claims " + std::to_string(w) + "x" + std::to_string(h) +
                       " pixels, more than a file of " + std::to_string(size) + " bytes can hold");
  }
  // A header the file can back may still ask for more cells than pathlab takes: a one-bit PNG
  // of 16384 x 16384 blank pixels is 55 KB.
  check_map_cells(w, h, name, 0);

  const std::string dims = std::to_string(w) + " x " + std::to_string(h);
  int rw = 0, rh = 0, rc = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> px(stbi_load_from_memory(data, len, &rw, &rh, &rc, 3),
                                              &stbi_image_free);
  if (!px) {
    const char* why = stbi_failure_reason();
    // stb_image reports a failed malloc as "outofmem" and has no exception to throw.
    if (why && std::strcmp(why, "outofmem") == 0)
      throw ResourceError(name + ": out of memory while building the decoded image (" + dims +
                          " pixels, " + std::to_string(pixels * 3) + " bytes)");
    throw InputError(name + ": cannot decode PNG: " + (why ? why : "unknown error"));
  }
  if (rw != w || rh != h) throw InputError(name + ": PNG size changed while decoding");

  return building(name, "the map's cells (" + dims + ")", [&] {
  std::vector<TerrainId> cells(static_cast<size_t>(pixels));
  // Maps are drawn with few colours: remember the last one instead of searching every pixel.
  Rgb last{};
  TerrainId last_t = palette.nearest_colour(last);
  const stbi_uc* p = px.get();
  for (size_t i = 0; i < cells.size(); ++i, p += 3) {
    Rgb c{p[0], p[1], p[2]};
    if (!(c == last)) {
      last = c;
      last_t = palette.nearest_colour(c);
    }
    cells[i] = last_t;
  }
  GridMap map(w, h, 0, palette);
  map.assign(std::move(cells));
  return map;
  });
}

GridMap load_png(const std::string& path, const Palette& palette) {
  std::string bytes = read_file(path, size_t(1) << 30);
  return parse_png(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), path, palette);
}

void save_png(const GridMap& map, const std::string& path) {
  if (map.width() <= 0 || map.height() <= 0)
    throw InputError(path + ": cannot save an empty map as PNG");
  const Palette& pal = map.palette();
  std::vector<unsigned char> rgb(static_cast<size_t>(map.cell_count()) * 3);
  const auto& cells = map.cells();
  for (size_t i = 0; i < cells.size(); ++i) {
    const Rgb& c = pal[cells[i]].colour;
    rgb[3 * i] = c.r;
    rgb[3 * i + 1] = c.g;
    rgb[3 * i + 2] = c.b;
  }
  std::string png;
  if (!stbi_write_png_to_func(&append_bytes, &png, map.width(), map.height(), 3, rgb.data(),
                              map.width() * 3))
    throw InputError(path + ": cannot encode PNG");
  write_file_atomic(path, png);
}

}  // namespace pl
