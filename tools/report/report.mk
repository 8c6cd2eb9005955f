# SPDX-License-Identifier: MIT
# tp-report, the host side of `timeprobe report` (docs/comparing.md).
# Included by the top Makefile, which sets B (build directory) and CC.
# A host tool: gcc or clang against glibc and jansson, never musl.
#
#   make report               $(B)/tp-report
#   make fuzz-report          $(B)/fuzz-report (libFuzzer, needs clang)
#   make fuzz-report-quick    fuzz for REPORT_FUZZ_QUICK_S seconds (make test)
#   make fuzz-report-long     fuzz for REPORT_FUZZ_LONG_S seconds (make fuzz)
#   make report-golden        rewrite the golden files after a wanted change
#   make report-schema-doc    rewrite the identity table in docs/records.md
#   make bench-report         the report's benchmarks alone (make bench runs them too)

REPORT_CC ?= $(CC)
REPORT_FUZZ_CC ?= clang
REPORT_FUZZ_QUICK_S ?= 30
REPORT_FUZZ_LONG_S ?= 600
REPORT_FUZZ_FLAGS ?= -max_len=65536 -timeout=10 -rss_limit_mb=2048

# jansson where Debian's libjansson-dev puts it (what `pkg-config jansson`
# says there); elsewhere set both in config.mak. Not asked of pkg-config
# here: a $(shell) runs even under make -n, which must run nothing.
REPORT_JANSSON_CFLAGS ?=
REPORT_JANSSON_LIBS ?= -ljansson
REPORT_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wshadow -Wformat=2 \
	-MMD -MP -Itools/report $(REPORT_JANSSON_CFLAGS)
REPORT_LDLIBS := $(REPORT_JANSSON_LIBS) -lm

REPORT_OBJDIR := $(B)/report
# The built-in key declaration (tools/report/keys.h): written at build time
# by a host program from the probes' own key tables, never by hand.
REPORT_KEYS_GEN := $(REPORT_OBJDIR)/keys_gen
REPORT_KEYS_C := $(REPORT_OBJDIR)/keys_builtin.c
# The lead's between-run variances (tools/report/noise.h): the committed
# table tools/report/floors.tsv, made by floors_gen (a host program of the
# report's own objects) from the identical runs in tests/data (aa-*.log,
# one run each) with `make noise-floor-table`, never by hand; the build
# only makes it a C string. tests/report/floors.t checks the two agree.
REPORT_FLOORS_GEN := $(REPORT_OBJDIR)/floors_gen
REPORT_FLOORS_TSV := tools/report/floors.tsv
REPORT_FLOORS_C := $(REPORT_OBJDIR)/floors_builtin.c
# (tests/data keeps them in archives, aa-SET.tar.xz: tests/lib/testdata.sh
# extracts them, and noise-floor-table estimates from there)
# everything but the two programs' mains, plus the record framing it shares
REPORT_LIB_SRC := $(filter-out tools/report/main.c tools/report/fuzz.c, \
	$(wildcard tools/report/*.c)) common/record.c common/verdict.c
REPORT_LIB_OBJ := $(patsubst %.c,$(REPORT_OBJDIR)/%.o,$(REPORT_LIB_SRC)) \
	$(REPORT_OBJDIR)/keys_builtin.o $(REPORT_OBJDIR)/floors_builtin.o
REPORT_LIB_SRC += $(REPORT_KEYS_C) $(REPORT_FLOORS_C)
REPORT_UNIT_SRC := $(wildcard tests/report/unit_*.c)
REPORT_UNIT := $(patsubst tests/report/%.c,$(B)/tests/report/%,$(REPORT_UNIT_SRC))
REPORT_FUZZ := $(B)/fuzz-report
REPORT_FUZZ_CORPUS := $(B)/fuzz-report-corpus
REPORT_SEEDS = $(wildcard tests/data/report-*.log tests/data/serial-*.log tests/data/capture-*.log) \
	tests/report/fuzz-seeds.tp1

UNIT_TESTS += $(REPORT_UNIT)
HOST_TESTS += $(sort $(wildcard tests/report/*.t))

# the .t scripts find the binary here whatever B is
export TP_REPORT := $(abspath $(B)/tp-report)

.PHONY: report fuzz-report fuzz-report-quick fuzz-report-long report-golden report-check \
	report-schema-doc bench-report noise-floor noise-floor-table

report: $(B)/tp-report $(REPORT_FLOORS_GEN)

$(REPORT_OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(REPORT_CC) $(REPORT_CFLAGS) -c $< -o $@

# It needs the probe tables and the record builder, no sanitizers: on x86
# it links the appliance's own musl objects (built for /init anyway, and
# run here: same CPU); an arm64 build's musl objects cannot run on this
# host, so it links the host library the unit tests use.
ifeq ($(ARCH),x86)
REPORT_KEYS_GEN_OBJ := $(filter-out $(B)/musl/userland/main.o,$(USERLAND_OBJ))
$(REPORT_KEYS_GEN): tools/report/gen/keys_gen.c $(REPORT_KEYS_GEN_OBJ) | $(MUSL_UAPI)/.done
	@mkdir -p $(@D)
	$(MUSL_CC) $(CFLAGS_COMMON) -D_GNU_SOURCE -isystem $(MUSL_UAPI) -static -o $@ $< \
		$(REPORT_KEYS_GEN_OBJ) -lm -lpthread
else
$(REPORT_KEYS_GEN): tools/report/gen/keys_gen.c $(USERLAND_HOST_LIB) $(STUB_HOST_LIB)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $< -Wl,--start-group $(USERLAND_HOST_LIB) $(STUB_HOST_LIB) \
		-Wl,--end-group $(HOST_LIBS)
endif

# rewritten only when it changed, so tp-report is not relinked for nothing
$(REPORT_KEYS_C): $(REPORT_KEYS_GEN)
	$(REPORT_KEYS_GEN) >$@.tmp
	cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(REPORT_OBJDIR)/keys_builtin.o: $(REPORT_KEYS_C)
	$(REPORT_CC) $(REPORT_CFLAGS) -c $< -o $@

$(REPORT_FLOORS_GEN): $(REPORT_OBJDIR)/tools/report/gen/floors_gen.o \
		$(filter-out $(REPORT_OBJDIR)/floors_builtin.o,$(REPORT_LIB_OBJ))
	$(REPORT_CC) -o $@ $^ $(REPORT_LDLIBS)

# the table as one C string (names are plain printable text: floors_gen checks)
$(REPORT_FLOORS_C): $(REPORT_FLOORS_TSV)
	@mkdir -p $(@D)
	{ echo '/* Generated from $(REPORT_FLOORS_TSV): do not edit. */'; \
	  echo '#include "noise.h"'; echo 'const char noise_builtin_tsv[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/^/\t"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } >$@

# Re-estimates the committed table from tests/data's identical runs.
noise-floor-table: $(REPORT_FLOORS_GEN)
	@d=$$(B='$(B)' sh tests/lib/testdata.sh) && export LC_ALL=C && set -- "$$d"/aa-*.log && \
	echo "noise-floor-table: estimating from $$# runs in tests/data (about 20 s)" && \
	$(REPORT_FLOORS_GEN) "$$@" >$(REPORT_FLOORS_TSV).tmp
	mv $(REPORT_FLOORS_TSV).tmp $(REPORT_FLOORS_TSV)

$(REPORT_OBJDIR)/floors_builtin.o: $(REPORT_FLOORS_C) tools/report/noise.h
	$(REPORT_CC) $(REPORT_CFLAGS) -c $< -o $@

$(B)/tp-report: $(REPORT_OBJDIR)/tools/report/main.o $(REPORT_LIB_OBJ)
	$(REPORT_CC) -o $@ $^ $(REPORT_LDLIBS)

$(B)/tests/report/%: $(REPORT_OBJDIR)/tests/report/%.o $(REPORT_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(REPORT_CC) -o $@ $^ $(REPORT_LDLIBS)

# The hostile-input test runs the whole report, plots and gnuplot included,
# under ASan and UBSan: built from the sources, not from the objects above.
REPORT_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
$(B)/tests/report/unit_hostile: tests/report/unit_hostile.c tests/unit/tap.h $(REPORT_LIB_SRC) \
		$(wildcard tools/report/*.h) common/record.h common/verdict.h
	@mkdir -p $(dir $@)
	$(REPORT_CC) $(filter-out -MMD -MP,$(REPORT_CFLAGS)) $(REPORT_SAN_FLAGS) -o $@ \
		tests/report/unit_hostile.c $(REPORT_LIB_SRC) $(REPORT_LDLIBS)

# unit tests and .t scripts on their own, for working on the report alone
report-check: $(B)/tp-report $(REPORT_UNIT)
	prove $(REPORT_UNIT) $(sort $(wildcard tests/report/*.t))

# docs/records.md's identity table, rewritten from tools/report/schema.c
report-schema-doc: $(B)/tp-report
	{ sed '/^<!-- schema: generated/q' docs/records.md; $(B)/tp-report --schema; \
	  sed -n '/^<!-- schema end -->/,$$p' docs/records.md; } >docs/records.md.tmp
	mv docs/records.md.tmp docs/records.md

# docs/benchmarks.md, "report scanner" and "report cost": timings, never tests
bench-report: $(B)/tp-report
	TP_REPORT="$(B)/tp-report" sh tools/bench/report-cost.sh
	TP_REPORT="$(B)/tp-report" sh tools/bench/report-scan.sh

report-golden: $(B)/tp-report
	REPORT_GOLDEN_UPDATE=1 prove tests/report/golden.t

fuzz-report: $(REPORT_FUZZ)

$(REPORT_FUZZ): tools/report/fuzz.c $(REPORT_LIB_SRC) $(wildcard tools/report/*.h) common/record.h common/verdict.h
	@mkdir -p $(dir $@)
	$(REPORT_FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-Itools/report $(REPORT_JANSSON_CFLAGS) -o $@ tools/report/fuzz.c $(REPORT_LIB_SRC) $(REPORT_LDLIBS)

# The corpus lives in $(B) and grows between runs; the logs in tests/data seed
# it, with each record of tests/report/fuzz-seeds.tp1 (every type) on its own.
# Without clang the runs are skipped with a message rather than failing make test.
# (looked up in PATH by make itself, so make -n starts no shell for it)
REPORT_HAVE_FUZZ_CC := $(firstword $(if $(findstring /,$(REPORT_FUZZ_CC)),$(wildcard $(REPORT_FUZZ_CC)), \
	$(wildcard $(addsuffix /$(REPORT_FUZZ_CC),$(subst :, ,$(PATH))))))
define report_fuzz_run
	@if [ -z "$(REPORT_HAVE_FUZZ_CC)" ]; then \
		echo "fuzz-report: SKIP: $(REPORT_FUZZ_CC) not found (apt-get install clang)"; \
	else \
		mkdir -p $(REPORT_FUZZ_CORPUS) && \
		cp $(REPORT_SEEDS) $(REPORT_FUZZ_CORPUS)/ && \
		split -l 1 -a 3 tests/report/fuzz-seeds.tp1 $(REPORT_FUZZ_CORPUS)/seed- && \
		$(REPORT_FUZZ) $(REPORT_FUZZ_FLAGS) -max_total_time=$(1) \
			-dict=tools/report/fuzz.dict -artifact_prefix=$(B)/fuzz-report- \
			-print_final_stats=1 $(REPORT_FUZZ_CORPUS); \
	fi
endef

fuzz-report-quick: $(if $(REPORT_HAVE_FUZZ_CC),$(REPORT_FUZZ))
	$(call report_fuzz_run,$(REPORT_FUZZ_QUICK_S))

fuzz-report-long: $(if $(REPORT_HAVE_FUZZ_CC),$(REPORT_FUZZ))
	$(call report_fuzz_run,$(REPORT_FUZZ_LONG_S))

-include $(REPORT_LIB_OBJ:.o=.d) $(REPORT_OBJDIR)/tools/report/main.d \
	$(REPORT_OBJDIR)/tools/report/gen/floors_gen.d \
	$(patsubst $(B)/tests/report/%,$(REPORT_OBJDIR)/tests/report/%.d,$(REPORT_UNIT))

# This machine's own between-run floors (docs/comparing.md, "Your own
# floors"): NOISE_PAIRS pairs of identical quick runs a minute apart
# (tools/aa-pairs.sh), then the floors `tp-report --floors=FILE` reads.
# Runs on a loaded machine (other work at 10 % of the CPUs or more) are
# left out: run it on an idle one.
NOISE_PAIRS ?= 5
# every probe whose figures the comparison judges (drift, ADEV and the stub's need a boot)
NOISE_PROBES ?= clocks,yield,switch,wakeup,itimer,noise,tsc,tscsync,vdso-check
noise-floor: $(B)/timeprobe $(REPORT_FLOORS_GEN)
	PROBES=$(NOISE_PROBES) TIMEPROBE=$(B)/timeprobe sh tools/aa-pairs.sh $(B)/noise-floor $(NOISE_PAIRS) 0 mine
	@echo "noise-floor: estimating the between-run variances from $(B)/noise-floor/mine-*.log"
	$(REPORT_FLOORS_GEN) $(B)/noise-floor/mine-*-[ab].log >$(B)/noise-floor/floors.tsv
	@echo "noise-floor: $(B)/noise-floor/floors.tsv; use: tp-report --floors=$(B)/noise-floor/floors.tsv A.log B.log"
