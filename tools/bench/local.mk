# modeltuned-bench (issue 6): A/B benchmark, filled in by its author
