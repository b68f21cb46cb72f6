// A view's search texture (search_image in viz/image.hpp: open and closed nodes that stand on
// cells, one texel per cell) kept in step with a replay cursor. Built in full when the trace,
// the map size, the options or the colours change; otherwise brought from the frame it shows to
// the new one through the status changes between them, forward or back, repainting only the
// cells of nodes whose status changed and telling the renderer the rectangle of cells to upload
// again. Always equal to search_image(state, ...) for the frame it was last brought to.
//
// The status changes come from a log built once per trace in one pass over its events: per
// frame, the cell nodes whose status (unseen, open, closed) the frame changed, with the status
// before and after, 4 bytes a change (a node changes about twice: opened, closed) and 4 bytes a
// frame. A move between two frames reads the changes between them, not the events (three or
// more a node) and not the frame's nodes.
//
// Stamps (allow_stamps): when every cell holds one node (one Cells space) and no cell's status
// ever goes back (unseen, then open, then closed; no reopening), a cell's status at any frame
// follows from two numbers, the frames it turned open and closed. The texture is then those
// numbers, uploaded once per trace, and a renderer colours a cell for the frame on screen
// (colour_at is the rule), so no move along the timeline, however long, repaints the image.
// Scrubbing a large search otherwise rebuilds and uploads the whole image each frame.
//
// Texels: what the renderer uploads is two 16-bit numbers a cell (texels()), not the 32-bit
// stamps: the stamp pass of a software rasteriser is bound by the bytes it reads, and half the
// bytes take 10-25% off a scrubbing frame (docs/traces-and-frames.md). A frame index needs 20
// bits at a million frames, so the texels hold buckets of 2^shift frames (texel_shift(); 0, the
// exact frame, below 65,534 frames) and the shader compares them with the bucket of the frame
// on screen (texel_frame()). Only cells with a stamp inside that bucket are undecided; each
// move sets theirs to the bucket itself (passed) or the next one (not yet), which stays right
// for every other bucket, and lists them (touched()) for the renderer to upload: the changes of
// at most 2^shift frames, a few hundred texels. texel_colour is the shader's rule on texels.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "viz/image.hpp"
#include "viz/style.hpp"
#include "viz/trace.hpp"

namespace pl {

class SearchTexture {
 public:
  // Cells [x0, x1) x [y0, y1) changed; empty when nothing did.
  struct Dirty {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool full = false;  // rebuilt: the whole image (and maybe its size) changed
    bool empty() const { return x1 <= x0 || y1 <= y0; }
  };

  // Shows `state`, a frame of the trace that `generation` names (a new trace must come with a
  // new generation). open / closed: which statuses to paint. In stamp mode `full` means "upload
  // the stamps" (a new trace); moves and option changes return empty.
  Dirty update(const FrameState& state, std::uint64_t generation, int width, int height,
               const Style& style, bool open, bool closed);
  // The painted image; not kept in stamp mode.
  const Image& image() const { return img_; }

  // Lets update() switch to stamps (off by default: image() then always shows the frame).
  // texel_bits: the texels' width (16, what the renderer uploads; narrower only to test the
  // buckets on small traces).
  void allow_stamps(bool on, int texel_bits = 16) {
    allow_stamps_ = on;
    texel_bits_ = std::clamp(texel_bits, 3, 16);
  }
  // Builds the stamps of `trace` on a width x height map ahead of its first move along the
  // timeline, e.g. on the worker that recorded the trace: on a million-node search the status
  // log and the stamps take ~0.2 s, which that move (the first frame of a scrub) would otherwise
  // pay. The first update() still paints the image (a still frame is cheaper to draw from an
  // image than from stamps under a software rasteriser); the first move switches to the
  // stamps if allowed. False when the trace cannot be stamped (update() then works as without).
  bool prepare(const Trace& trace, std::uint64_t generation, int width, int height);
  // The generation a prepared texture answers to (a view numbers its traces when it shows them).
  void set_generation(std::uint64_t generation) { generation_ = generation; }
  bool stamped() const { return stamped_; }
  // prepare() built the stamps, which the first move will switch to (stamps() holds them).
  bool prepared() const { return prepared_; }
  // The map size the texture was last built or prepared for.
  int width() const { return width_; }
  int height() const { return height_; }
  // Per cell, row by row: the frame it turned open (closed cells that were never open: the frame
  // they closed), then the frame it turned closed; kNever when it did not.
  static constexpr std::uint32_t kNever = 0xFFFFFFFFu;
  const std::vector<std::uint32_t>& stamps() const { return stamps_; }
  // Stamp mode: per cell, row by row, the open and the closed texel (kNeverTexel: never), as the
  // renderer uploads them (RG16UI) and the shader compares them with texel_frame().
  static constexpr std::uint16_t kNeverTexel = 0xFFFF;
  const std::vector<std::uint16_t>& texels() const { return texels_; }
  // The cells whose texels the last update changed, in increasing order (upload them, unless
  // that update was full: then upload every texel).
  const std::vector<std::uint32_t>& touched() const { return touched_; }
  int texel_shift() const { return shift_; }
  // Stamp mode: the map in tiles of kTile x kTile cells, row by row, tiles_x() a row. A picture
  // drawn at one frame stays right at another outside the tiles that tile_changes names, so a
  // renderer that keeps its picture draws only those again.
  static constexpr int kTile = 8;
  int tiles_x() const { return tiles_x_; }
  int tiles_y() const { return tiles_y_; }
  // Whether some cell of tile t may show otherwise at frame a than at frame b: a stamp of the
  // tile may lie in (min(a, b), max(a, b)] (the tile's stamps span that range; none: false).
  bool tile_changes(std::size_t t, std::size_t a, std::size_t b) const {
    const std::size_t lo = std::min(a, b), hi = std::max(a, b);
    const std::uint32_t first = tile_stamps_[2 * t], last = tile_stamps_[2 * t + 1];
    return lo < hi && first != kNever && first <= hi && last > lo;
  }
  std::uint32_t texel_frame() const { return std::uint32_t(frame_ >> shift_); }
  // The shader's rule: what a cell whose texels are (open_texel, closed_texel) shows.
  Rgba texel_colour(std::uint16_t open_texel, std::uint16_t closed_texel) const {
    return shown(texel_frame(), open_texel, closed_texel);
  }
  std::size_t frame() const { return frame_; }
  bool shows_open() const { return open_; }
  bool shows_closed() const { return closed_; }
  Rgba open_colour() const { return open_c_; }
  Rgba closed_colour() const { return closed_c_; }
  // Stamp mode: what the cell shows at frame(), exactly (the texels' rule, texel_colour, on
  // the frame and the stamps themselves).
  Rgba colour_at(std::size_t cell) const {
    return shown(std::uint32_t(frame_), stamps_[2 * cell], stamps_[2 * cell + 1]);
  }
  // Whether some open / closed cell is painted (the legend).
  bool any_open() const { return open_ && open_nodes_ > 0; }
  bool any_closed() const { return closed_ && closed_nodes_ > 0; }
  // Forget everything: the next update rebuilds.
  void reset() { valid_ = false; }
  // Nodes whose status the last update changed, or the state's node count after a rebuild.
  std::size_t last_changed() const { return last_changed_; }

 private:
  // What a cell that turned open at `opened` and closed at `closed` shows at frame f (all three
  // in frames, or all three in buckets).
  Rgba shown(std::uint32_t f, std::uint32_t opened, std::uint32_t closed) const {
    if (f >= closed) return closed_ ? closed_c_ : Rgba{0, 0, 0, 0};
    if (f >= opened) return open_ ? open_c_ : Rgba{0, 0, 0, 0};
    return {0, 0, 0, 0};
  }

  struct CellSpace {
    std::uint32_t base = 0;
    std::uint32_t per_cell = 0;  // 1: Cells; k: CellHeadings
    std::uint8_t space = 0;
  };
  Dirty rebuild(const FrameState& state);
  // The trace's spaces over this map (spaces_, simple_).
  void find_spaces(const Trace& t);
  void paint(std::size_t cell);
  // The status-change log of the trace (empty when the trace is too large for it), and the
  // stamps when the trace allows them (stamped_).
  void build_log(const Trace& t);
  // From the log: the stamps and the open / closed counts per frame, when every change moves a
  // cell forward (unseen, open, closed); false otherwise.
  bool build_stamps(const Trace& t);
  // From the stamps: the texels and the cells by bucket.
  void build_texels(const Trace& t);
  // Decides the texels of the cells with a stamp in frame_'s bucket for frame_ (touched_).
  void resolve_bucket();

  const Trace* trace_ = nullptr;
  Image img_;
  std::vector<NodeStatus> status_;  // by node index: what the image shows
  std::vector<CellSpace> spaces_;   // the spaces over this map whose nodes stand on cells
  bool simple_ = false;             // one Cells space alone: a cell shows its one node
  std::uint64_t generation_ = 0;
  std::size_t frame_ = 0;
  int width_ = 0, height_ = 0;
  bool open_ = true, closed_ = true, valid_ = false;
  Rgba open_c_, closed_c_, open_tint_, closed_tint_;
  std::size_t open_nodes_ = 0, closed_nodes_ = 0;  // cell nodes by status (any_open / closed)
  std::size_t last_changed_ = 0;
  std::vector<std::uint32_t> scratch_;
  // Status changes: node index (28 bits), status before (2 bits), after (2 bits); frame k's are
  // log_[log_first_[k - 1], log_first_[k]) (log_first_[0] = 0, frame 0 has none).
  std::vector<std::uint32_t> log_;
  std::vector<std::uint32_t> log_first_;
  bool logged_ = false;  // the log belongs to trace_ (built on the first move)
  bool allow_stamps_ = false, stamped_ = false;
  bool prepared_ = false;  // stamps_ and the counts hold the trace's stamps (prepare())
  std::vector<std::uint32_t> stamps_;
  std::vector<std::uint32_t> open_count_, closed_count_;  // stamp mode: cell nodes by frame
  int texel_bits_ = 16, shift_ = 0;
  std::vector<std::uint16_t> texels_;
  // The cells with a stamp in bucket b: bucket_cells_[bucket_first_[b], bucket_first_[b + 1]),
  // in increasing order.
  std::vector<std::uint32_t> bucket_first_, bucket_cells_;
  std::vector<std::uint32_t> touched_;
  // Per tile, the first and the last stamp of its cells (kNever, 0: none).
  int tiles_x_ = 0, tiles_y_ = 0;
  std::vector<std::uint32_t> tile_stamps_;
};

// A rectangle of viewport pixels, [x0, x1) x [y0, y1), y down.
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// The pixels of a width x height viewport that a map view drawn at frame `from` draws again to
// show frame `to`, in stamp mode: those over the tiles tile_changes names, and one more around
// them, as rectangles (bands of tile rows some 16 pixels tall, runs of tiles along each; gaps
// of up to a band's height filled). zoom: pixels per cell; (ox, oy): the pixel where map point
// (0, 0) is. False, and no rectangles, when they would cover over max_share of the viewport or
// be more than max_rects: then the whole view is drawn, in one pass.
bool changed_rects(const SearchTexture& tex, std::size_t from, std::size_t to, double zoom,
                   double ox, double oy, int width, int height, std::vector<PixelRect>& out,
                   double max_share = 0.6, std::size_t max_rects = 96);

}  // namespace pl
