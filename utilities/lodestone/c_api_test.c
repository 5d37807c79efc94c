/* Tests of include/rocksdb/lodestone_c.h, written in C against the C API
   only, as a C user (or a binding such as grocksdb) would call it. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocksdb/c.h"
#include "rocksdb/lodestone_c.h"

static const char* phase = "";
static char dir[256];

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, \
              phase, #cond);                                               \
      abort();                                                             \
    }                                                                      \
  } while (0)

#define CHECK_NO_ERROR(err)                                               \
  do {                                                                    \
    if ((err) != NULL) {                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, phase, err); \
      abort();                                                            \
    }                                                                     \
  } while (0)

static void StartPhase(const char* name) {
  fprintf(stderr, "=== %s\n", name);
  phase = name;
}

static char* Path(const char* name) {
  static char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  return path;
}

/* The value of `key` is `expected` (NULL: the key is absent). */
static void CheckGet(rocksdb_t* db, rocksdb_column_family_handle_t* cf,
                     const char* key, const char* expected) {
  rocksdb_readoptions_t* ro = rocksdb_readoptions_create();
  char* err = NULL;
  size_t len = 0;
  char* val = cf == NULL
                  ? rocksdb_get(db, ro, key, strlen(key), &len, &err)
                  : rocksdb_get_cf(db, ro, cf, key, strlen(key), &len, &err);
  CHECK_NO_ERROR(err);
  if (expected == NULL) {
    CHECK(val == NULL);
  } else {
    CHECK(val != NULL);
    CHECK(len == strlen(expected));
    CHECK(memcmp(val, expected, len) == 0);
  }
  rocksdb_free(val);
  rocksdb_readoptions_destroy(ro);
}

/* The number that follows `label` in `text` (which it frees). */
static unsigned long long NumberAfter(char* text, const char* label) {
  CHECK(text != NULL);
  const char* at = strstr(text, label);
  CHECK(at != NULL);
  unsigned long long n = strtoull(at + strlen(label), NULL, 10);
  rocksdb_free(text);
  return n;
}

/* The count a statistics string gives for `ticker` ("<name> COUNT : <n>"). */
static unsigned long long Ticker(rocksdb_options_t* opt, const char* ticker) {
  char label[128];
  snprintf(label, sizeof(label), "%s COUNT : ", ticker);
  return NumberAfter(rocksdb_options_statistics_get_string(opt), label);
}

/* The number after "<field>: " in a DB property's text. */
static unsigned long long PropertyField(rocksdb_t* db, const char* property,
                                        const char* field) {
  char label[128];
  snprintf(label, sizeof(label), "\n%s: ", field);
  return NumberAfter(rocksdb_property_value(db, property), label);
}

static void Flush(rocksdb_t* db) {
  rocksdb_flushoptions_t* fo = rocksdb_flushoptions_create();
  char* err = NULL;
  rocksdb_flush(db, fo, &err);
  CHECK_NO_ERROR(err);
  rocksdb_flushoptions_destroy(fo);
}

static rocksdb_options_t* NewOptions(void) {
  rocksdb_options_t* opt = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(opt, 1);
  rocksdb_options_enable_statistics(opt);
  return opt;
}

static void Destroy(rocksdb_options_t* opt, const char* name) {
  char* err = NULL;
  rocksdb_destroy_db(opt, Path(name), &err);
  CHECK_NO_ERROR(err);
}

/* Initial puts through the DB, its column families and write batches; a
   chain from an initial put to a delete is dropped by compaction. */
static void TestDBAndBatches(void) {
  StartPhase("db_and_batches");
  rocksdb_options_t* opt = NewOptions();
  Destroy(opt, "batches");
  char* err = NULL;
  rocksdb_t* db = rocksdb_open(opt, Path("batches"), &err);
  CHECK_NO_ERROR(err);
  rocksdb_column_family_handle_t* cf =
      rocksdb_create_column_family(db, opt, "other", &err);
  CHECK_NO_ERROR(err);
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();

  rocksdb_put_initial(db, wo, "a", 1, "va", 2, &err);
  CHECK_NO_ERROR(err);
  rocksdb_put_initial_cf(db, wo, cf, "a", 1, "cf-va", 5, &err);
  CHECK_NO_ERROR(err);

  rocksdb_writebatch_t* wb = rocksdb_writebatch_create();
  rocksdb_writebatch_put_initial(wb, "b", 1, "vb", 2);
  rocksdb_writebatch_put_initial_cf(wb, cf, "b", 1, "cf-vb", 5);
  CHECK(rocksdb_writebatch_count(wb) == 2);
  rocksdb_write(db, wo, wb, &err);
  CHECK_NO_ERROR(err);
  rocksdb_writebatch_destroy(wb);

  rocksdb_writebatch_wi_t* wbwi = rocksdb_writebatch_wi_create(0, 1);
  rocksdb_writebatch_wi_put_initial(wbwi, "c", 1, "vc", 2);
  rocksdb_writebatch_wi_put_initial_cf(wbwi, cf, "c", 1, "cf-vc", 5);
  {
    /* The index sees an initial put as a put. */
    rocksdb_options_t* plain = rocksdb_options_create();
    size_t len = 0;
    char* v =
        rocksdb_writebatch_wi_get_from_batch(wbwi, plain, "c", 1, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(v != NULL && len == 2 && memcmp(v, "vc", 2) == 0);
    rocksdb_free(v);
    rocksdb_options_destroy(plain);
  }
  rocksdb_write_writebatch_wi(db, wo, wbwi, &err);
  CHECK_NO_ERROR(err);
  rocksdb_writebatch_wi_destroy(wbwi);

  CheckGet(db, NULL, "a", "va");
  CheckGet(db, NULL, "b", "vb");
  CheckGet(db, NULL, "c", "vc");
  CheckGet(db, cf, "a", "cf-va");
  CheckGet(db, cf, "b", "cf-vb");
  CheckGet(db, cf, "c", "cf-vc");

  /* Written as initial puts, not plain puts: once each key is deleted, the
     flush drops each chain from the initial put to its delete whole (a plain
     put's delete would be written out). */
  rocksdb_delete(db, wo, "a", 1, &err);
  CHECK_NO_ERROR(err);
  rocksdb_delete(db, wo, "b", 1, &err);
  CHECK_NO_ERROR(err);
  rocksdb_delete(db, wo, "c", 1, &err);
  CHECK_NO_ERROR(err);
  rocksdb_put(db, wo, "other", 5, "x", 1, &err);
  CHECK_NO_ERROR(err);
  Flush(db);
  CHECK(Ticker(opt, "rocksdb.initial.chains.pruned") == 3);
  CheckGet(db, NULL, "a", NULL);
  CheckGet(db, NULL, "b", NULL);
  CheckGet(db, NULL, "c", NULL);
  CheckGet(db, cf, "a", "cf-va");

  rocksdb_writeoptions_destroy(wo);
  rocksdb_column_family_handle_destroy(cf);
  rocksdb_close(db);
  rocksdb_options_destroy(opt);
}

/* verify_initial_puts, set from an options string: a broken contract is an
   error through errptr, a kept one is not. */
static void TestVerification(void) {
  StartPhase("verification");
  rocksdb_options_t* base = NewOptions();
  rocksdb_options_t* opt = rocksdb_options_create();
  char* err = NULL;
  rocksdb_get_options_from_string(base, "verify_initial_puts=true", opt, &err);
  CHECK_NO_ERROR(err);
  Destroy(opt, "verify");
  rocksdb_t* db = rocksdb_open(opt, Path("verify"), &err);
  CHECK_NO_ERROR(err);
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();

  rocksdb_put(db, wo, "k", 1, "old", 3, &err);
  CHECK_NO_ERROR(err);
  rocksdb_put_initial(db, wo, "k", 1, "new", 3, &err);
  CHECK(err != NULL);
  CHECK(strstr(err, "Invalid argument") != NULL);
  rocksdb_free(err);
  err = NULL;
  CheckGet(db, NULL, "k", "old");
  CHECK(Ticker(opt, "rocksdb.initial.put.contract.violations") == 1);

  rocksdb_delete(db, wo, "k", 1, &err);
  CHECK_NO_ERROR(err);
  rocksdb_put_initial(db, wo, "k", 1, "new", 3, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, NULL, "k", "new");

  rocksdb_writeoptions_destroy(wo);
  rocksdb_close(db);
  rocksdb_options_destroy(opt);
  rocksdb_options_destroy(base);
}

/* Initial puts in pessimistic and optimistic transactions, and on a
   TransactionDB directly. */
static void TestTransactions(void) {
  StartPhase("transactions");
  rocksdb_options_t* opt = NewOptions();
  Destroy(opt, "txn");
  char* err = NULL;
  rocksdb_transactiondb_options_t* tdbo =
      rocksdb_transactiondb_options_create();
  rocksdb_transactiondb_t* tdb =
      rocksdb_transactiondb_open(opt, tdbo, Path("txn"), &err);
  CHECK_NO_ERROR(err);
  rocksdb_column_family_handle_t* cf =
      rocksdb_transactiondb_create_column_family(tdb, opt, "other", &err);
  CHECK_NO_ERROR(err);
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t* ro = rocksdb_readoptions_create();
  rocksdb_transaction_options_t* to = rocksdb_transaction_options_create();

  rocksdb_transaction_t* txn = rocksdb_transaction_begin(tdb, wo, to, NULL);
  rocksdb_transaction_put_initial(txn, "t", 1, "vt", 2, &err);
  CHECK_NO_ERROR(err);
  rocksdb_transaction_put_initial_cf(txn, cf, "t", 1, "cf-vt", 5, &err);
  CHECK_NO_ERROR(err);
  rocksdb_transaction_commit(txn, &err);
  CHECK_NO_ERROR(err);
  rocksdb_transaction_destroy(txn);

  rocksdb_transactiondb_put_initial(tdb, wo, "d", 1, "vd", 2, &err);
  CHECK_NO_ERROR(err);
  rocksdb_transactiondb_put_initial_cf(tdb, wo, cf, "d", 1, "cf-vd", 5, &err);
  CHECK_NO_ERROR(err);

  const char* keys[] = {"t", "d"};
  const char* values[] = {"vt", "vd"};
  const char* cf_values[] = {"cf-vt", "cf-vd"};
  for (int i = 0; i < 2; i++) {
    size_t len = 0;
    char* v = rocksdb_transactiondb_get(tdb, ro, keys[i], 1, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(v != NULL && len == 2 && memcmp(v, values[i], 2) == 0);
    rocksdb_free(v);
    v = rocksdb_transactiondb_get_cf(tdb, ro, cf, keys[i], 1, &len, &err);
    CHECK_NO_ERROR(err);
    CHECK(v != NULL && len == 5 && memcmp(v, cf_values[i], 5) == 0);
    rocksdb_free(v);
  }

  rocksdb_transaction_options_destroy(to);
  rocksdb_column_family_handle_destroy(cf);
  rocksdb_transactiondb_close(tdb);
  rocksdb_transactiondb_options_destroy(tdbo);

  StartPhase("optimistic_transactions");
  Destroy(opt, "otxn");
  rocksdb_optimistictransactiondb_t* odb =
      rocksdb_optimistictransactiondb_open(opt, Path("otxn"), &err);
  CHECK_NO_ERROR(err);
  rocksdb_optimistictransaction_options_t* oto =
      rocksdb_optimistictransaction_options_create();
  txn = rocksdb_optimistictransaction_begin(odb, wo, oto, NULL);
  rocksdb_transaction_put_initial(txn, "o", 1, "vo", 2, &err);
  CHECK_NO_ERROR(err);
  rocksdb_transaction_commit(txn, &err);
  CHECK_NO_ERROR(err);
  rocksdb_transaction_destroy(txn);
  rocksdb_t* base = rocksdb_optimistictransactiondb_get_base_db(odb);
  CheckGet(base, NULL, "o", "vo");
  rocksdb_optimistictransactiondb_close_base_db(base);
  rocksdb_optimistictransaction_options_destroy(oto);
  rocksdb_optimistictransactiondb_close(odb);

  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(opt);
}

/* Reads every key twice after a flush: the second read of each should hit. */
static void WriteFlushRead(rocksdb_t* db, int keys) {
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();
  char key[16];
  char* err = NULL;
  for (int i = 0; i < keys; i++) {
    snprintf(key, sizeof(key), "key%05d", i);
    rocksdb_put(db, wo, key, strlen(key), key, strlen(key), &err);
    CHECK_NO_ERROR(err);
  }
  Flush(db);
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < keys; i++) {
      snprintf(key, sizeof(key), "key%05d", i);
      CheckGet(db, NULL, key, key);
    }
  }
  rocksdb_writeoptions_destroy(wo);
}

/* One location cache shared by two DBs; a cache sized from the block cache;
   the options string route; the cache's property. */
static void TestLocationCache(void) {
  StartPhase("location_cache_shared");
  char* err = NULL;
  rocksdb_location_cache_t* cache = rocksdb_location_cache_create(1 << 20);
  CHECK(rocksdb_location_cache_get_capacity(cache) == 1 << 20);
  CHECK(rocksdb_location_cache_get_usage(cache) == 0);

  rocksdb_options_t* opt1 = NewOptions();
  rocksdb_options_t* opt2 = NewOptions();
  rocksdb_options_set_location_cache(opt1, cache);
  rocksdb_options_set_location_cache(opt2, cache);
  Destroy(opt1, "shared1");
  Destroy(opt2, "shared2");
  rocksdb_t* db1 = rocksdb_open(opt1, Path("shared1"), &err);
  CHECK_NO_ERROR(err);
  rocksdb_t* db2 = rocksdb_open(opt2, Path("shared2"), &err);
  CHECK_NO_ERROR(err);
  /* The DBs hold their own references. */
  rocksdb_location_cache_t* probe = cache;
  WriteFlushRead(db1, 200);
  WriteFlushRead(db2, 200);
  CHECK(PropertyField(db1, "rocksdb.lodestone.location-cache", "hits") > 0);
  CHECK(PropertyField(db2, "rocksdb.lodestone.location-cache", "hits") > 0);
  CHECK(Ticker(opt1, "rocksdb.location.cache.hit") > 0);
  size_t used_by_db1 = (size_t)PropertyField(
      db1, "rocksdb.lodestone.location-cache", "entries_used_by_this_db");
  CHECK(used_by_db1 > 0);
  CHECK(rocksdb_location_cache_get_usage(probe) > used_by_db1);
  rocksdb_location_cache_destroy(cache);
  CheckGet(db1, NULL, "key00007", "key00007");
  rocksdb_close(db1);
  rocksdb_close(db2);
  rocksdb_options_destroy(opt1);
  rocksdb_options_destroy(opt2);

  StartPhase("location_cache_fraction");
  cache = rocksdb_location_cache_create_with_block_cache_fraction(0.25);
  CHECK(rocksdb_location_cache_get_capacity(cache) == 0);
  rocksdb_options_t* opt = NewOptions();
  rocksdb_block_based_table_options_t* bbto =
      rocksdb_block_based_options_create();
  rocksdb_cache_t* block_cache = rocksdb_cache_create_lru(4 << 20);
  rocksdb_block_based_options_set_block_cache(bbto, block_cache);
  rocksdb_options_set_block_based_table_factory(opt, bbto);
  rocksdb_options_set_location_cache(opt, cache);
  Destroy(opt, "fraction");
  rocksdb_t* db = rocksdb_open(opt, Path("fraction"), &err);
  CHECK_NO_ERROR(err);
  CHECK(rocksdb_location_cache_get_capacity(cache) == 1 << 20);
  rocksdb_close(db);
  rocksdb_location_cache_destroy(cache);
  rocksdb_cache_destroy(block_cache);
  rocksdb_block_based_options_destroy(bbto);
  rocksdb_options_destroy(opt);

  StartPhase("location_cache_from_string");
  cache = rocksdb_location_cache_create_from_string("capacity=64K", &err);
  CHECK_NO_ERROR(err);
  CHECK(rocksdb_location_cache_get_capacity(cache) == 64 << 10);
  rocksdb_location_cache_destroy(cache);
  const char* bad[] = {"", "nullptr", "capacity=lots", "size=1M"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    cache = rocksdb_location_cache_create_from_string(bad[i], &err);
    CHECK(cache == NULL);
    CHECK(err != NULL);
    rocksdb_free(err);
    err = NULL;
  }
  /* The options string route: no handle needed. */
  rocksdb_options_t* base = NewOptions();
  opt = rocksdb_options_create();
  rocksdb_get_options_from_string(base, "location_cache=capacity=256K", opt,
                                  &err);
  CHECK_NO_ERROR(err);
  Destroy(opt, "from_string");
  db = rocksdb_open(opt, Path("from_string"), &err);
  CHECK_NO_ERROR(err);
  WriteFlushRead(db, 100);
  CHECK(PropertyField(db, "rocksdb.lodestone.location-cache",
                      "capacity_bytes") == 256 << 10);
  CHECK(PropertyField(db, "rocksdb.lodestone.location-cache", "hits") > 0);
  rocksdb_close(db);
  rocksdb_options_destroy(opt);
  rocksdb_options_destroy(base);
}

/* Lodestone's mutable options through rocksdb_set_options; unknown and bad
   values are errors. */
static void TestSetOptions(void) {
  StartPhase("set_options");
  rocksdb_options_t* opt = NewOptions();
  Destroy(opt, "set_options");
  char* err = NULL;
  rocksdb_t* db = rocksdb_open(opt, Path("set_options"), &err);
  CHECK_NO_ERROR(err);
  const char* keys[] = {"min_tombstones_for_range_conversion",
                        "tombstone_density_trigger",
                        "delete_persistence_threshold"};
  const char* values[] = {"16", "0.25", "600"};
  rocksdb_set_options(db, 3, keys, values, &err);
  CHECK_NO_ERROR(err);
  const char* bad_keys[] = {"min_tombstones_for_range_conversion"};
  const char* bad_values[] = {"many"};
  rocksdb_set_options(db, 1, bad_keys, bad_values, &err);
  CHECK(err != NULL);
  rocksdb_free(err);
  err = NULL;
  const char* unknown_keys[] = {"min_tombstones_for_range_conversions"};
  rocksdb_set_options(db, 1, unknown_keys, values, &err);
  CHECK(err != NULL);
  rocksdb_free(err);
  err = NULL;
  rocksdb_close(db);
  rocksdb_options_destroy(opt);
}

/* Secondary range deletes: the extractor from an options string, the call,
   what it hides, and its errors. */
static void TestSecondaryDeletes(void) {
  StartPhase("secondary_deletes");
  rocksdb_options_t* base = NewOptions();
  rocksdb_options_t* opt = rocksdb_options_create();
  char* err = NULL;
  rocksdb_get_options_from_string(
      base, "delete_key_extractor={id=value_prefix;length=2}", opt, &err);
  CHECK_NO_ERROR(err);
  rocksdb_options_enable_statistics(opt);
  Destroy(opt, "secondary_deletes");
  rocksdb_t* db = rocksdb_open(opt, Path("secondary_deletes"), &err);
  CHECK_NO_ERROR(err);
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();
  rocksdb_put(db, wo, "a", 1, "d1-a", 4, &err);
  CHECK_NO_ERROR(err);
  rocksdb_put(db, wo, "b", 1, "d5-b", 4, &err);
  CHECK_NO_ERROR(err);
  rocksdb_column_family_handle_t* cf =
      rocksdb_get_default_column_family_handle(db);
  rocksdb_delete_by_delete_key_range(db, cf, "d5", 2, "d6", 2, &err);
  CHECK_NO_ERROR(err);
  CheckGet(db, NULL, "a", "d1-a");
  CheckGet(db, NULL, "b", NULL);
  CHECK(Ticker(opt, "rocksdb.secondary.delete.tombstones.added") == 1);
  CHECK(PropertyField(db, "rocksdb.lodestone.secondary-deletes",
                      "live_tombstones") == 1);
  /* lo not below hi */
  rocksdb_delete_by_delete_key_range(db, cf, "d6", 2, "d5", 2, &err);
  CHECK(err != NULL);
  rocksdb_free(err);
  err = NULL;
  rocksdb_column_family_handle_destroy(cf);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_close(db);
  rocksdb_options_destroy(opt);
  rocksdb_options_destroy(base);
}

int main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  const char* tmp = getenv("TEST_TMPDIR");
  snprintf(dir, sizeof(dir), "%s/lodestone_c_api_test-%d",
           tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp", (int)getpid());
  CHECK(mkdir(dir, 0755) == 0);
  TestDBAndBatches();
  TestVerification();
  TestTransactions();
  TestLocationCache();
  TestSetOptions();
  TestSecondaryDeletes();
  fprintf(stderr, "PASS\n");
  return 0;
}
