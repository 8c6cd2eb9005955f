# SPDX-License-Identifier: MIT
# Installing timeprobe and packaging it (README, "Install"). Included by the
# top Makefile, which sets B; for the x86 build (build/): the man pages and
# the completion are made by running the programs.
#
#   make install     timeprobe, tp-report, their man pages, bash completion,
#                    the systemd units, and the appliance files that were built
#                    ($(B)/timeprobe.efi, $(B)/timeprobe.iso) in $(PREFIX)/share/timeprobe;
#                    PREFIX=/usr/local, DESTDIR= (a staging root)
#   make uninstall   removes what make install put there
#   make man         $(B)/man/timeprobe.1 and tp-report.1, from their --help
#   make completion  $(B)/completion/timeprobe, from their options tables
#   make deb         build/deb/timeprobe_VERSION_ARCH.deb and timeprobe-appliance_VERSION_all.deb
#                    (tools/mkdeb.sh: dpkg-buildpackage in a copy of the tree; debian/)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/timeprobe
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
# /usr/local/lib/systemd/system is on systemd's path; the package says /lib.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
INSTALL ?= install

.PHONY: install uninstall man completion deb

# ARCH=arm64: these run this host's programs (the man pages, the completion)
# and package them for it; refused before anything is built, in the words of
# the Makefile's ARM64_NOT table (docs/arm64.md, tests/build/arm64-targets.t).
ifeq ($(ARCH),arm64)
install_refused := $(firstword $(filter install uninstall man completion deb,$(MAKECMDGOALS)))
$(if $(install_refused),$(error make $(install_refused): not for ARCH=arm64: it installs and packages \
	this host's programs, and the arm64 build is cross-compiled for another CPU; run it without ARCH=arm64))
endif

# The version both programs print (tools/version.sh), remade when a source,
# the changelog or git's HEAD or index changes (not on every make: make -q
# must stay quiet). A worktree's .git is a file naming its git folder.
GIT_FOLDER := $(if $(wildcard .git/HEAD),.git,$(if $(wildcard .git),$(patsubst gitdir: %,%,$(file <.git))))
$(B)/version.h: tools/version.sh debian/changelog $(USERLAND_SRC) $(wildcard tools/report/*.c) \
		$(if $(GIT_FOLDER),$(wildcard $(GIT_FOLDER)/logs/HEAD $(GIT_FOLDER)/index))
	@mkdir -p $(@D)
	sh tools/version.sh > $@.tmp
	mv $@.tmp $@
$(B)/musl/userland/usage.o: $(B)/version.h
$(B)/musl/userland/usage.o: MUSL_EXTRA := -include $(B)/version.h
$(REPORT_OBJDIR)/tools/report/main.o: $(B)/version.h
$(REPORT_OBJDIR)/tools/report/main.o: REPORT_CFLAGS += -include $(B)/version.h

$(B)/man/timeprobe.1: $(B)/timeprobe tools/help2man.sh
	@mkdir -p $(@D)
	sh tools/help2man.sh $(B)/timeprobe 'timing probes of a machine: clocks, wake-ups, the TSC' \
		'tp-report(1); docs/ in the source tree, /usr/share/doc/timeprobe' > $@.tmp
	mv $@.tmp $@
$(B)/man/tp-report.1: $(B)/tp-report tools/help2man.sh
	@mkdir -p $(@D)
	sh tools/help2man.sh $(B)/tp-report 'read, compare and export timeprobe runs' \
		'timeprobe(1); docs/comparing.md, docs/exporting.md, docs/fleet.md in the source tree' > $@.tmp
	mv $@.tmp $@
man: $(B)/man/timeprobe.1 $(B)/man/tp-report.1

$(B)/completion/timeprobe: $(B)/timeprobe $(B)/tp-report tools/completion.sh
	@mkdir -p $(@D)
	sh tools/completion.sh $(B)/timeprobe $(B)/tp-report > $@.tmp
	mv $@.tmp $@
completion: $(B)/completion/timeprobe

# The appliance files that were built, each where the package puts it.
INSTALL_APPLIANCE := $(wildcard $(B)/timeprobe.efi $(B)/timeprobe.iso)

install: $(B)/timeprobe $(B)/tp-report man completion
	$(INSTALL) -d $(call sq,$(DESTDIR)$(BINDIR)) $(call sq,$(DESTDIR)$(MANDIR)/man1) \
		$(call sq,$(DESTDIR)$(COMPLETIONDIR)) $(call sq,$(DESTDIR)$(SYSTEMDUNITDIR))
	$(INSTALL) -m 755 $(B)/timeprobe $(B)/tp-report $(call sq,$(DESTDIR)$(BINDIR))
	$(INSTALL) -m 644 $(B)/man/timeprobe.1 $(B)/man/tp-report.1 $(call sq,$(DESTDIR)$(MANDIR)/man1)
	$(INSTALL) -m 644 $(B)/completion/timeprobe $(call sq,$(DESTDIR)$(COMPLETIONDIR))/timeprobe
	ln -sf timeprobe $(call sq,$(DESTDIR)$(COMPLETIONDIR))/tp-report
	$(INSTALL) -m 644 tools/systemd/timeprobe-textfile.timer $(call sq,$(DESTDIR)$(SYSTEMDUNITDIR))
	sed 's|@BINDIR@|$(BINDIR)|g' tools/systemd/timeprobe-textfile.service.in \
		> $(call sq,$(DESTDIR)$(SYSTEMDUNITDIR))/timeprobe-textfile.service
ifneq ($(INSTALL_APPLIANCE),)
	$(INSTALL) -d $(call sq,$(DESTDIR)$(DATADIR))
	$(INSTALL) -m 644 $(INSTALL_APPLIANCE) $(call sq,$(DESTDIR)$(DATADIR))
endif

uninstall:
	rm -f $(call sq,$(DESTDIR)$(BINDIR))/timeprobe $(call sq,$(DESTDIR)$(BINDIR))/tp-report \
		$(call sq,$(DESTDIR)$(MANDIR))/man1/timeprobe.1 $(call sq,$(DESTDIR)$(MANDIR))/man1/tp-report.1 \
		$(call sq,$(DESTDIR)$(COMPLETIONDIR))/timeprobe $(call sq,$(DESTDIR)$(COMPLETIONDIR))/tp-report \
		$(call sq,$(DESTDIR)$(SYSTEMDUNITDIR))/timeprobe-textfile.service \
		$(call sq,$(DESTDIR)$(SYSTEMDUNITDIR))/timeprobe-textfile.timer \
		$(call sq,$(DESTDIR)$(DATADIR))/timeprobe.efi $(call sq,$(DESTDIR)$(DATADIR))/timeprobe.iso
	rmdir $(call sq,$(DESTDIR)$(DATADIR)) 2>/dev/null || true

deb:
	sh tools/mkdeb.sh build/deb
