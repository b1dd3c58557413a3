# OpenBench-style build: `make EXE=<name>` produces one executable file, <name>, that starts the camelpy
# UCI engine (`./<name> bench` runs the bench and exits; no stdin needed).
#
# By default the package is installed from this checkout into its own virtual environment
# ($(VENV), under the ignored build/ folder), so the executable always runs the code of this commit; <name> is a
# two-line launcher for that environment's interpreter. To reuse an interpreter that already has this
# checkout installed (CI, a development venv), skip the install: `make EXE=<name> VENV= PYTHON=<python>`.

EXE ?= camelpy-engine
PYTHON ?= python3
VENV ?= $(CURDIR)/build/openbench-venv

ifeq ($(strip $(VENV)),)
ENGINE_PYTHON := $(shell command -v $(PYTHON) 2>/dev/null || echo $(PYTHON))
else
ENGINE_PYTHON := $(VENV)/bin/python
endif

.PHONY: all $(EXE) clean

all: $(EXE)

$(EXE):
ifneq ($(strip $(VENV)),)
	$(PYTHON) -m venv "$(VENV)"
	"$(VENV)/bin/python" -m pip install --quiet "$(CURDIR)"
endif
	"$(ENGINE_PYTHON)" -c "import camelpy._core" || { echo "camelpy is not installed for $(ENGINE_PYTHON)" >&2; exit 1; }
	printf '#!/bin/sh\nexec "%s" -I -m camelpy "$$@"\n' "$(abspath $(ENGINE_PYTHON))" > "$(EXE)"
	chmod +x "$(EXE)"

clean:
	rm -rf "$(VENV)"
