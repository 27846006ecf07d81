# modeltuned explain: the model's ranking of every candidate for a job, offline.
tools_modeltuned_SOURCES += tools/explain/explain.cpp
