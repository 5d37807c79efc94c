"""The Kafka cluster measurement's summary: medians, ratios the right way
round, a table naming every variant."""

from lodestone_bench import cluster


def _runs():
    runs = []
    for rep, (stock, lodestone, stores) in enumerate([(100, 110, 150), (90, 120, 140),
                                                       (110, 100, 160)]):
        for variant, pps in (("stock", stock), ("lodestone", lodestone), ("stores", stores)):
            runs.append({"rep": rep, "variant": variant, "measured": {
                "payments_per_second": pps,
                "range_p50_us": {"stock": 1000, "lodestone": 800, "stores": 250}[variant],
                "tickers": {"rocksdb.craft.filter.empty": 0 if variant != "stores" else 9},
            }})
    return runs


def test_ratios_are_times_better_than_stock():
    rows = {r["measurement"]: r for r in cluster.summarize(_runs())}
    pps = rows["payments_per_second"]
    assert pps["values"]["stock"] == [90, 100, 110]
    assert pps["ratio"]["lodestone"] == 1.1  # Higher is better: variant / stock.
    assert pps["ratio"]["stores"] == 1.5
    assert rows["range_p50_us"]["ratio"]["stores"] == 4.0  # Lower: stock / variant.
    assert rows["get_p50_us"]["values"] == {}  # Not measured: no row values.


def test_markdown_names_every_variant_and_the_tickers():
    runs = _runs()
    md = cluster.markdown({"scenario": {"name": "kafka_cluster_cold"},
                           "repetitions": 3, "summary": cluster.summarize(runs),
                           "tickers": cluster.tickers(runs)})
    assert "| payments_per_second | 100 (90..110) | 110 (100..120) | 150 (140..160) |" in md
    assert "1.50x" in md and "4.00x" in md
    assert "stores: rocksdb.craft.filter.empty=9" in md
    assert md.startswith("# kafka_cluster_cold:")
