"""Bundled data tables: Gavel's throughputs and traces (MIT, see gavel-LICENSE.txt) and parity references."""
