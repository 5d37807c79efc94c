"""Side-by-side db_bench runs of stock RocksDB and Lodestone."""
