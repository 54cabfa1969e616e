"""herdbot benchmarks: ``python -m bench [--quick]``.

Sections: ``engine`` (random playouts, ``apply`` latency), ``render`` (table PNGs),
``store`` (``commit_action`` in WAL mode, start-up with 10,000 stored games) and ``load``
(concurrent games driven through the sandbox). Figures are printed as a table, written as
JSON to ``bench/out/`` (git-ignored) and, in full mode, summarised in ``bench/summary.json``.
See ``bench/README.md`` for the figures against the targets.
"""
