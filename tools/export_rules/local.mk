# modeltuned export-rules: the decisions as a tuned dynamic rules file.
tools_modeltuned_SOURCES += tools/export_rules/export_rules.cpp
