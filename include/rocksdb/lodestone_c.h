/* Lodestone's additions to the C API (rocksdb/c.h).

   Same conventions as rocksdb/c.h: objects are opaque handles created by a
   *_create call and released by the matching *_destroy; calls that can fail
   take `char** errptr`, which must point to NULL on entry and on failure
   receives a malloc()ed message that the caller frees (rocksdb_free).

   Initial puts. rocksdb_*put_initial* store a key's *initial version*: when
   the write applies, the key has no visible value in the column family (it
   was never written, or its newest version is a delete). See
   WriteBatchBase::PutInitial and docs/initial_put.md for the contract and for
   what stock RocksDB does with a DB holding initial puts.

   The location cache. One cache may serve several DBs and column families:
   create it once, hand it to each DB's options with
   rocksdb_options_set_location_cache, and destroy the handle whenever
   convenient (DBs and options hold their own references). Without sharing,
   the options string route needs no handle:
   rocksdb_get_options_from_string(base, "location_cache=64M", ...).

   The other Lodestone options (min_tombstones_for_range_conversion,
   delete_persistence_threshold, tombstone_density_trigger,
   tombstone_density_window, verify_initial_puts, delete_key_extractor,
   delete_tile_blocks; range_filter inside
   block_based_table_factory) are set from options strings
   (rocksdb_get_options_from_string) or, where mutable, on an open DB
   (rocksdb_set_options, rocksdb_set_options_cf). The DB properties
   ("rocksdb.lodestone.location-cache", "rocksdb.lodestone.craft-filter",
   "rocksdb.lodestone.tombstones-per-level",
   "rocksdb.lodestone.tombstone-compaction") and the statistics tickers are
   read with rocksdb_property_value(_cf) and rocksdb_options_statistics_get_*
   as any other. */

#pragma once

#include "rocksdb/c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initial puts on a DB (and on a TransactionDB, as a one-write transaction) */

extern ROCKSDB_LIBRARY_API void rocksdb_put_initial(
    rocksdb_t* db, const rocksdb_writeoptions_t* options, const char* key,
    size_t keylen, const char* val, size_t vallen, char** errptr);

extern ROCKSDB_LIBRARY_API void rocksdb_put_initial_cf(
    rocksdb_t* db, const rocksdb_writeoptions_t* options,
    rocksdb_column_family_handle_t* column_family, const char* key,
    size_t keylen, const char* val, size_t vallen, char** errptr);

extern ROCKSDB_LIBRARY_API void rocksdb_transactiondb_put_initial(
    rocksdb_transactiondb_t* txn_db, const rocksdb_writeoptions_t* options,
    const char* key, size_t klen, const char* val, size_t vlen, char** errptr);

extern ROCKSDB_LIBRARY_API void rocksdb_transactiondb_put_initial_cf(
    rocksdb_transactiondb_t* txn_db, const rocksdb_writeoptions_t* options,
    rocksdb_column_family_handle_t* column_family, const char* key,
    size_t keylen, const char* val, size_t vallen, char** errptr);

/* Initial puts in write batches. A batch cannot fail here; the write that
   applies it reports a broken contract when verify_initial_puts is on. */

extern ROCKSDB_LIBRARY_API void rocksdb_writebatch_put_initial(
    rocksdb_writebatch_t* batch, const char* key, size_t klen, const char* val,
    size_t vlen);

extern ROCKSDB_LIBRARY_API void rocksdb_writebatch_put_initial_cf(
    rocksdb_writebatch_t* batch, rocksdb_column_family_handle_t* column_family,
    const char* key, size_t klen, const char* val, size_t vlen);

extern ROCKSDB_LIBRARY_API void rocksdb_writebatch_wi_put_initial(
    rocksdb_writebatch_wi_t* batch, const char* key, size_t klen,
    const char* val, size_t vlen);

extern ROCKSDB_LIBRARY_API void rocksdb_writebatch_wi_put_initial_cf(
    rocksdb_writebatch_wi_t* batch,
    rocksdb_column_family_handle_t* column_family, const char* key, size_t klen,
    const char* val, size_t vlen);

/* Initial puts in transactions (pessimistic and optimistic). A transaction
   type without initial puts reports NotSupported through errptr. */

extern ROCKSDB_LIBRARY_API void rocksdb_transaction_put_initial(
    rocksdb_transaction_t* txn, const char* key, size_t klen, const char* val,
    size_t vlen, char** errptr);

extern ROCKSDB_LIBRARY_API void rocksdb_transaction_put_initial_cf(
    rocksdb_transaction_t* txn, rocksdb_column_family_handle_t* column_family,
    const char* key, size_t klen, const char* val, size_t vlen, char** errptr);

/* The location cache */

typedef struct rocksdb_location_cache_t rocksdb_location_cache_t;

/* A cache whose descriptor array takes `capacity` bytes (8 per slot). */
extern ROCKSDB_LIBRARY_API rocksdb_location_cache_t*
rocksdb_location_cache_create(size_t capacity);

/* A cache sized, when the first DB opens with it, to `fraction` of that DB's
   block cache (its default column family's block_based_table_factory). */
extern ROCKSDB_LIBRARY_API rocksdb_location_cache_t*
rocksdb_location_cache_create_with_block_cache_fraction(double fraction);

/* Parses what the "location_cache" option accepts ("64M", "capacity=64M",
   "block_cache_fraction=0.1"); an empty string or "nullptr" is an error
   here, since it names no cache. */
extern ROCKSDB_LIBRARY_API rocksdb_location_cache_t*
rocksdb_location_cache_create_from_string(const char* value, char** errptr);

extern ROCKSDB_LIBRARY_API void rocksdb_location_cache_destroy(
    rocksdb_location_cache_t* cache);

/* Bytes the descriptor array takes (0 until a fraction-sized cache is
   sized), and the slots in use. */
extern ROCKSDB_LIBRARY_API size_t
rocksdb_location_cache_get_capacity(const rocksdb_location_cache_t* cache);
extern ROCKSDB_LIBRARY_API size_t
rocksdb_location_cache_get_usage(const rocksdb_location_cache_t* cache);

/* DBOptions::location_cache; NULL turns the cache off. */
extern ROCKSDB_LIBRARY_API void rocksdb_options_set_location_cache(
    rocksdb_options_t* opt, rocksdb_location_cache_t* cache);

/* Secondary range deletes (rocksdb/secondary_delete.h, docs/kiwi.md).
   Deletes every entry of the column family whose delete key d (the
   column family's delete_key_extractor, set from an options string such as
   "delete_key_extractor={id=value_prefix;length=8}") has lo <= d < hi,
   bytewise, written before the call. A column family without an extractor,
   or lo not below hi, is an error. */
extern ROCKSDB_LIBRARY_API void rocksdb_delete_by_delete_key_range(
    rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
    const char* lo, size_t lo_len, const char* hi, size_t hi_len,
    char** errptr);

#ifdef __cplusplus
} /* end extern "C" */
#endif
