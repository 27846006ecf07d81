# modeltuned calibrate: the user's calibration command, run again after a crashing or hanging trial.
tools_modeltuned_SOURCES += tools/calibrate/calibrate.cpp
