# modeltuned validate: the model against the ORFEO EPYC measurements (docs/validation.md).
tools_modeltuned_SOURCES += tools/modeltuned_validate.cpp
tools_modeltuned_CPPFLAGS += $(EIGEN_CFLAGS) $(FMT_CFLAGS)

# `make validate`: every table and plot from the shared data, into validation/ of the build dir.
validate: tools/modeltuned$(EXEEXT)
	GNUPLOT='$(GNUPLOT)' $(builddir)/tools/modeltuned$(EXEEXT) validate --data $(ORFEO_DATA) \
	  --out $(abs_builddir)/validation --reduce-us-per-byte $(ORFEO_REDUCE_US_PER_BYTE)
.PHONY: validate
