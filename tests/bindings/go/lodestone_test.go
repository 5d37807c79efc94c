// Lodestone's features as a Go user reaches them through grocksdb: options
// strings turn them on, DB properties and statistics show them working.
// Run by ../run_grocksdb_test.sh after grocksdb's own suite.
package lodestone

import (
	"fmt"
	"strings"
	"testing"

	"github.com/linxGnu/grocksdb"
)

const lodestoneOptions = "create_if_missing=true;location_cache=1M;" +
	"min_tombstones_for_range_conversion=4;" +
	"block_based_table_factory={range_filter=craft}"

func openDB(t *testing.T) (*grocksdb.DB, *grocksdb.Options) {
	t.Helper()
	base := grocksdb.NewDefaultOptions()
	defer base.Destroy()
	opts, err := grocksdb.GetOptionsFromString(base, lodestoneOptions)
	if err != nil {
		t.Fatalf("Lodestone options string refused: %v", err)
	}
	opts.EnableStatistics()
	db, err := grocksdb.OpenDb(opts, t.TempDir())
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return db, opts
}

func key(i int) []byte { return []byte(fmt.Sprintf("k%05d", i)) }

// The options a string turns on are the ones the DB runs with.
func TestOptionsStringReachesTheDB(t *testing.T) {
	db, opts := openDB(t)
	defer opts.Destroy()
	defer db.Close()
	cache := db.GetProperty("rocksdb.lodestone.location-cache")
	if !strings.Contains(cache, "capacity") {
		t.Fatalf("location cache property: %q", cache)
	}
	conv := db.GetProperty("rocksdb.lodestone.tombstone-runs")
	if !strings.Contains(conv, "min_tombstones_for_range_conversion: 4") {
		t.Fatalf("conversion property: %q", conv)
	}
}

// A scan over a run of deletes converts it; a repeated Get is served by
// the location cache; results are the ones stock gives.
func TestFeaturesWorkFromGo(t *testing.T) {
	db, opts := openDB(t)
	defer opts.Destroy()
	defer db.Close()
	wo := grocksdb.NewDefaultWriteOptions()
	defer wo.Destroy()
	ro := grocksdb.NewDefaultReadOptions()
	defer ro.Destroy()
	for i := 0; i < 100; i++ {
		if err := db.Put(wo, key(i), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	fo := grocksdb.NewDefaultFlushOptions()
	defer fo.Destroy()
	if err := db.Flush(fo); err != nil {
		t.Fatal(err)
	}
	for i := 10; i < 60; i++ {
		if err := db.Delete(wo, key(i)); err != nil {
			t.Fatal(err)
		}
	}
	it := db.NewIterator(ro)
	n := 0
	for it.SeekToFirst(); it.Valid(); it.Next() {
		n++
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	it.Close()
	if n != 50 {
		t.Fatalf("scan saw %d keys, want 50", n)
	}
	conv := db.GetProperty("rocksdb.lodestone.tombstone-runs")
	if !strings.Contains(conv, "inserted: 1\n") {
		t.Fatalf("no run converted: %q", conv)
	}
	for round := 0; round < 2; round++ {
		for i := 60; i < 100; i++ {
			v, err := db.Get(ro, key(i))
			if err != nil {
				t.Fatal(err)
			}
			if string(v.Data()) != "v" {
				t.Fatalf("Get(%s) = %q", key(i), v.Data())
			}
			v.Free()
		}
	}
	stats := opts.GetStatisticsString()
	if !strings.Contains(stats, "rocksdb.location.cache.hit COUNT : ") ||
		strings.Contains(stats, "rocksdb.location.cache.hit COUNT : 0\n") {
		t.Fatalf("no location cache hits:\n%s", stats)
	}
}
