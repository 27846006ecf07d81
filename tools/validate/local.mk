# modeltuned validate: the model against the ORFEO EPYC measurements (docs/validation.md).
# tools/validate/validate.cpp runs the phases and registers the command; the rest, one concern a file.
tools_modeltuned_SOURCES += tools/validate/validate.cpp tools/validate/options.hpp \
	tools/validate/measurements.hpp tools/validate/measurements.cpp \
	tools/validate/metrics.hpp tools/validate/metrics.cpp \
	tools/validate/models.hpp tools/validate/models.cpp \
	tools/validate/calibration.hpp tools/validate/calibration.cpp \
	tools/validate/accuracy.hpp tools/validate/accuracy.cpp \
	tools/validate/selection.hpp tools/validate/selection.cpp \
	tools/validate/protocol.hpp tools/validate/protocol.cpp \
	tools/validate/format.hpp tools/validate/csv_output.hpp tools/validate/csv_output.cpp \
	tools/validate/report.hpp tools/validate/report.cpp \
	tools/validate/plots.hpp tools/validate/plots.cpp
tools_modeltuned_CPPFLAGS += $(EIGEN_CFLAGS) $(FMT_CFLAGS)

# `make validate`: every table and plot from the shared data, into validation/ of the build dir.
validate: tools/modeltuned$(EXEEXT)
	GNUPLOT='$(GNUPLOT)' $(builddir)/tools/modeltuned$(EXEEXT) validate --data $(ORFEO_DATA) \
	  --out $(abs_builddir)/validation --reduce-us-per-byte $(ORFEO_REDUCE_US_PER_BYTE)
.PHONY: validate
