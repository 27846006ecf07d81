# modeltuned fit: a calibration table from OSU-style CSVs.
tools_modeltuned_SOURCES += tools/fit/fit.cpp
