#include "table/kiwi/tile_table_reader.h"

#include <algorithm>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "db/secondary_deletes/covered_entries.h"
#include "monitoring/statistics_impl.h"
#include "table/block_based/block.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/block_based/block_based_table_reader_impl.h"
#include "table/block_based/block_builder.h"
#include "table/block_fetcher.h"
#include "table/get_context.h"
#include "table/kiwi/tile_drop.h"
#include "table/kiwi/tile_key_filter.h"
#include "table/meta_blocks.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {
namespace kiwi {

namespace {

bool SameHandle(const BlockHandle& a, const BlockHandle& b) {
  return a.offset() == b.offset() && a.size() == b.size();
}

BlockHandle SpanOf(const Tile& tile) {
  const BlockHandle& first = tile.blocks.front().handle;
  const BlockHandle& last = tile.blocks.back().handle;
  return BlockHandle(first.offset(),
                     last.offset() + last.size() - first.offset());
}

void DeleteBlock(void* block, void* /*unused*/) {
  delete static_cast<Block*>(block);
}

// The largest sequence number an entry of the table can have (a
// secondary range delete drops a block whole only when it covers it).
SequenceNumber LargestSeqno(const BlockBasedTable::Rep& rep) {
  if (rep.global_seqno != kDisableGlobalSequenceNumber) {
    return rep.global_seqno;
  }
  return rep.table_properties != nullptr
             ? rep.table_properties->key_largest_seqno
             : kMaxSequenceNumber;
}

// Points `iter` at a block holding `contents`, which it owns.
void InitFromContents(const BlockBasedTable::Rep& rep, const Slice& contents,
                      DataBlockIter* iter) {
  std::unique_ptr<char[]> bytes(new char[contents.size()]);
  memcpy(bytes.get(), contents.data(), contents.size());
  auto* block = new Block(BlockContents(std::move(bytes), contents.size()));
  block->NewDataIterator(rep.internal_comparator.user_comparator(),
                         kDisableGlobalSequenceNumber, iter, rep.ioptions.stats,
                         /*block_contents_pinned=*/false);
  iter->RegisterCleanup(&DeleteBlock, block, nullptr);
}

// The entries of a tile a point lookup of `user_key` can reach: each
// block's entries of the key and, of the entries after them, the smallest,
// at which BlockBasedTable::Get stops instead of going on to the next tile.
// `blocks` may be only some of the tile's (its key filters passed over the
// others, which hold no entry of the key); then, when none of them holds an
// entry after the key's, `last_user_key` (the tile's) says whether the tile
// has one, and the merge ends with a stop entry (that key, sequence 0, a
// deletion), which Get meets as the first entry of another key and stops
// at, seeing none of it. Null when every live block was read.
// Adds them to `merged` in internal key order; false with `*s` set when a
// block fails. Keys are copied (a block iterator's key may live in its own
// buffer); values point into the blocks, open throughout, until `merged`
// copies them.
bool MergeForLookup(DataBlockIter* blocks, size_t n, const Slice& user_key,
                    const std::string* last_user_key,
                    const InternalKeyComparator& icmp, BlockBuilder* merged,
                    Status* s) {
  const Comparator* ucmp = icmp.user_comparator();
  IterKey target;
  target.SetInternalKey(user_key, kMaxSequenceNumber, kValueTypeForSeek);
  std::vector<std::pair<std::string, Slice>> entries;
  std::string after_key;
  Slice after_value;
  for (size_t i = 0; i < n; ++i) {
    DataBlockIter& b = blocks[i];
    for (b.Seek(target.GetInternalKey()); b.Valid(); b.Next()) {
      if (ucmp->Compare(ExtractUserKey(b.key()), user_key) != 0) {
        if (after_key.empty() || icmp.Compare(b.key(), after_key) < 0) {
          after_key.assign(b.key().data(), b.key().size());
          after_value = b.value();
        }
        break;
      }
      entries.emplace_back(b.key().ToString(), b.value());
    }
    if (!b.status().ok()) {
      *s = b.status();
      return false;
    }
  }
  std::sort(entries.begin(), entries.end(),
            [&](const std::pair<std::string, Slice>& a,
                const std::pair<std::string, Slice>& b) {
              return icmp.Compare(a.first, b.first) < 0;
            });
  for (const auto& [key, value] : entries) {
    merged->Add(key, value);
  }
  if (!after_key.empty()) {
    merged->Add(after_key, after_value);
  } else if (last_user_key != nullptr &&
             ucmp->Compare(user_key, *last_user_key) < 0) {
    IterKey stop;
    stop.SetInternalKey(*last_user_key, 0, kTypeDeletion);
    merged->Add(stop.GetInternalKey(), Slice());
  }
  return true;
}

// Every entry of the tile's live blocks, in internal key order: the tile's
// blocks hold disjoint entries, each block in order, so a merge of a few
// cursors. False with `*s` set when a block fails.
bool MergeWhole(DataBlockIter* blocks, size_t n,
                const InternalKeyComparator& icmp, BlockBuilder* merged,
                Status* s) {
  for (size_t i = 0; i < n; ++i) {
    blocks[i].SeekToFirst();
  }
  for (;;) {
    DataBlockIter* next = nullptr;
    for (size_t i = 0; i < n; ++i) {
      DataBlockIter& b = blocks[i];
      if (b.Valid() &&
          (next == nullptr || icmp.Compare(b.key(), next->key()) < 0)) {
        next = &b;
      }
    }
    if (next == nullptr) {
      break;
    }
    merged->Add(next->key(), next->value());
    next->Next();
  }
  for (size_t i = 0; i < n; ++i) {
    if (!blocks[i].status().ok()) {
      *s = blocks[i].status();
      return false;
    }
  }
  return true;
}

}  // namespace

TileMapReader::TileMapReader(std::vector<Tile> tiles)
    : tiles_(std::move(tiles)) {
  spans_.reserve(tiles_.size());
  for (const Tile& tile : tiles_) {
    spans_.push_back(SpanOf(tile));
  }
}

const Tile* TileMapReader::Find(const BlockHandle& handle) const {
  auto it = std::lower_bound(spans_.begin(), spans_.end(), handle.offset(),
                             [](const BlockHandle& span, uint64_t offset) {
                               return span.offset() < offset;
                             });
  if (it == spans_.end() || !SameHandle(*it, handle)) {
    return nullptr;
  }
  return &tiles_[it - spans_.begin()];
}

const Tile* TileMapReader::FindMultiBlockTile(const BlockHandle& handle) const {
  const Tile* tile = Find(handle);
  return tile != nullptr && tile->blocks.size() > 1 ? tile : nullptr;
}

Status LoadTileMap(const BlockBasedTable& table,
                   InternalIterator* metaindex_iter,
                   FilePrefetchBuffer* prefetch_buffer, const ReadOptions& ro,
                   std::shared_ptr<const TileMapReader>* tiles) {
  tiles->reset();
  if (metaindex_iter == nullptr) {
    return Status::OK();
  }
  BlockHandle handle;
  if (!FindOptionalMetaBlock(metaindex_iter, kTileMapBlockName, &handle).ok() ||
      handle.IsNull()) {
    return Status::OK();  // Written without tiles.
  }
  const BlockBasedTable::Rep& rep = *table.get_rep();
  BlockContents contents;
  BlockFetcher fetcher(rep.file.get(), prefetch_buffer, rep.footer, ro, handle,
                       &contents, rep.ioptions, /*do_uncompress=*/false,
                       /*maybe_compressed=*/false, BlockType::kInvalid,
                       UncompressionDict::GetEmptyDict(),
                       rep.persistent_cache_options);
  Status s = fetcher.ReadBlockContents();
  std::vector<Tile> decoded;
  if (s.ok()) {
    s = DecodeTileMap(contents.data, &decoded);
  }
  if (s.ok()) {
    *tiles = std::make_shared<const TileMapReader>(std::move(decoded));
  }
  return s;
}

bool OpenTile(const BlockBasedTable& table, const ReadOptions& ro,
              const BlockHandle& handle, GetContext* get_context,
              BlockCacheLookupContext* lookup_context,
              FilePrefetchBuffer* prefetch_buffer, bool for_compaction,
              DataBlockIter* iter) {
  const BlockBasedTable::Rep& rep = *table.get_rep();
  const Tile* tile = rep.tiles->Find(handle);
  if (tile == nullptr) {
    return false;  // A block of a tile.
  }
  TEST_SYNC_POINT("kiwi::OpenTile:Tile");
  // What the read sees covered: a point lookup's, at its snapshot; a
  // compaction's, at the oldest snapshot that can see the table's entries.
  const CoveredEntries* covered = get_context != nullptr
                                      ? get_context->covered_entries()
                                      : ro.covered_entries;
  Statistics* stats = rep.ioptions.stats;
  // A subcompaction (bounded) would count the entries of a block dropped
  // whole though they may lie in its neighbour's range: it reads the block
  // and drops its covered entries one by one instead.
  const bool may_drop_whole =
      !for_compaction ||
      (ro.iterate_lower_bound == nullptr && ro.iterate_upper_bound == nullptr);
  // Asked once per tile, not per block.
  const bool judged = covered != nullptr && covered->active();
  const InternalKeyComparator& icmp = rep.internal_comparator;
  // A point lookup reads one user key (with timestamps, GetContext's key
  // is not the whole of it: those lookups read the whole tile).
  const bool one_key =
      get_context != nullptr && icmp.user_comparator()->timestamp_size() == 0;
  const Slice lookup_key =
      one_key ? get_context->ukey_to_get_blob_value() : Slice();
  // It reads only the blocks whose key filter may hold its key, in a tile
  // whose last key says where to stop (MergeForLookup): tile map version 2.
  const bool filtered = one_key && !tile->last_user_key.empty();
  bool passed_over = false;
  const SequenceNumber read_seq = judged ? covered->ReadSeqFor(0) : 0;
  const SequenceNumber largest_seqno = judged ? LargestSeqno(rep) : 0;
  std::vector<const TileBlock*> live;
  for (const TileBlock& block : tile->blocks) {
    if (judged && may_drop_whole &&
        DroppedWhole(block, *covered->tombstones, largest_seqno, read_seq)) {
      if (for_compaction) {
        covered->CountDroppedBlock(&rep, block.handle.offset(), block.entries);
        RecordTick(stats, SECONDARY_DELETE_BLOCKS_DROPPED_FULL);
        RecordTick(stats, SECONDARY_DELETE_BYTES_RECLAIMED,
                   BlockBasedTable::BlockSizeWithTrailer(block.handle));
      } else {
        RecordTick(stats, SECONDARY_DELETE_BLOCKS_SKIPPED);
      }
      continue;
    }
    if (filtered && !TileKeyFilterMayMatch(block.key_filter, lookup_key)) {
      passed_over = true;
      continue;
    }
    if (judged && for_compaction && block.has_delete_keys &&
        covered->tombstones->Overlaps(block.smallest_delete_key,
                                      block.largest_delete_key, read_seq)) {
      // Read entry by entry under a tombstone: a partial drop.
      RecordTick(stats, SECONDARY_DELETE_BLOCKS_DROPPED_PARTIAL);
    }
    live.push_back(&block);
  }
  if (tile->blocks.size() == 1 && live.size() == 1) {
    return false;  // One block, read as one.
  }
  if (get_context != nullptr) {
    // The location cache remembers entries in blocks, and the entry this
    // lookup finds lies in the merge: it remembers nothing of this lookup.
    get_context->set_location_found(nullptr);
  }

  const size_t n = live.size();
  std::unique_ptr<DataBlockIter[]> blocks(new DataBlockIter[n]);
  for (size_t i = 0; i < n; ++i) {
    Status s;
    table.NewDataBlockIterator<DataBlockIter>(
        ro, live[i]->handle, &blocks[i], BlockType::kData, get_context,
        lookup_context, prefetch_buffer, for_compaction,
        /*async_read=*/false, s, /*use_block_cache_for_lookup=*/true);
    if (!blocks[i].status().ok()) {
      iter->Invalidate(blocks[i].status());
      return true;
    }
  }
  BlockBuilder merged(rep.table_options.block_restart_interval,
                      rep.table_options.use_delta_encoding);
  Status s;
  if (!(one_key ? MergeForLookup(blocks.get(), n, lookup_key,
                                 passed_over ? &tile->last_user_key : nullptr,
                                 icmp, &merged, &s)
                : MergeWhole(blocks.get(), n, icmp, &merged, &s))) {
    iter->Invalidate(s);
    return true;
  }
  InitFromContents(rep, merged.Finish(), iter);
  return true;
}

bool VerifyTileChecksums(const BlockBasedTable& table, const ReadOptions& ro,
                         FilePrefetchBuffer* prefetch_buffer,
                         const BlockHandle& handle, Status* s) {
  const BlockBasedTable::Rep& rep = *table.get_rep();
  const Tile* tile = rep.tiles->FindMultiBlockTile(handle);
  if (tile == nullptr) {
    return false;
  }
  for (const TileBlock& block : tile->blocks) {
    BlockContents contents;
    BlockFetcher fetcher(rep.file.get(), prefetch_buffer, rep.footer, ro,
                         block.handle, &contents, rep.ioptions,
                         /*do_uncompress=*/false, /*maybe_compressed=*/false,
                         BlockType::kData, UncompressionDict::GetEmptyDict(),
                         rep.persistent_cache_options);
    *s = fetcher.ReadBlockContents();
    if (!s->ok()) {
      break;
    }
  }
  return true;
}

void DumpTileMap(const TileMapReader& tiles, std::ostream& out) {
  out << "KiWi delete tiles (" << kTileMapBlockName << "):\n"
      << "--------------------------------------\n";
  for (size_t t = 0; t < tiles.tiles().size(); ++t) {
    const Tile& tile = tiles.tiles()[t];
    out << "  tile " << t << ": " << tile.blocks.size() << " block(s)\n";
    for (const TileBlock& block : tile.blocks) {
      out << "    block " << block.handle.ToString(/*hex=*/false) << " entries "
          << block.entries;
      if (block.has_delete_keys) {
        out << " delete keys ["
            << Slice(block.smallest_delete_key).ToString(true) << ", "
            << Slice(block.largest_delete_key).ToString(true) << "]";
      } else {
        out << " no delete keys";
      }
      if (!block.key_filter.empty()) {
        out << " key filter " << block.key_filter.size() << " bytes";
      }
      out << (block.only_coverable_entries ? " droppable" : "") << "\n";
    }
  }
  out << "\n";
}

}  // namespace kiwi
}  // namespace ROCKSDB_NAMESPACE
