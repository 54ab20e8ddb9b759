#!/usr/bin/env bash
# Installs the OSRM 26.10 binaries (osrm-extract, osrm-partition, osrm-customize, osrm-routed and the
# car profile) from the PyPI wheel osrm-bindings into .tools/osrm/, and builds the Rutland MLD graph
# (data/osm/rutland-latest.osm.pbf, ODbL) into .tools/osrm/rutland/. The wheel's executables run
# without Python; pip is only its downloader. Idempotent: each step is skipped when its output exists.
#   bash scripts/install-osrm.sh            # then: .tools/osrm/run.sh osrm-routed --algorithm mld ...
# docs/routing.md explains the steps and how to do the same for Great Britain.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="26.10.0"
wheel_name="osrm_bindings-${version}-cp312-abi3-manylinux_2_28_x86_64.whl"
dir="$root/.tools/osrm"
pbf="$root/data/osm/rutland-latest.osm.pbf"
graph="$dir/rutland"
mkdir -p "$dir"
# Two test runs at once (CI runs both topologies side by side) install one at a time.
exec 9>"$dir/.lock"
flock 9

if [ -x "$dir/wheel/osrm/bin/osrm-routed" ]; then
  echo "osrm: binaries already in $dir/wheel/osrm/bin"
else
  if [ ! -f "$dir/$wheel_name" ]; then
    echo "osrm: downloading $wheel_name from PyPI"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
      --platform manylinux_2_28_x86_64 --dest "$dir" "osrm-bindings==$version" >&2
  else
    echo "osrm: wheel already downloaded"
  fi
  echo "osrm: unpacking the wheel into $dir/wheel"
  rm -rf "$dir/wheel.tmp"
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$dir/$wheel_name" -d "$dir/wheel.tmp"
  else
    python3 -m zipfile -e "$dir/$wheel_name" "$dir/wheel.tmp"
  fi
  chmod +x "$dir/wheel.tmp/osrm/bin/"*
  rm -rf "$dir/wheel"
  mv "$dir/wheel.tmp" "$dir/wheel"
fi

# A launcher that finds the wheel's own shared libraries (osrm_bindings.libs/, osrm/lib/).
cat > "$dir/run.sh" <<RUN
#!/usr/bin/env bash
# Runs one of the OSRM binaries unpacked from the osrm-bindings wheel: run.sh osrm-routed ...
set -euo pipefail
here="\$(cd "\$(dirname "\$0")" && pwd)"
libs="\$here/wheel/osrm/lib:\$here/wheel/osrm_bindings.libs"
export LD_LIBRARY_PATH="\$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
tool="\$1"; shift
exec "\$here/wheel/osrm/bin/\$tool" "\$@"
RUN
chmod +x "$dir/run.sh"

if [ -f "$graph/rutland.osrm.mldgr" ] && [ -f "$graph/.complete" ]; then
  echo "osrm: Rutland graph already built in $graph"
  exit 0
fi
rm -rf "$graph.tmp"
mkdir -p "$graph.tmp"
cp "$pbf" "$graph.tmp/rutland.osm.pbf"
echo "osrm: osrm-extract (car profile) on data/osm/rutland-latest.osm.pbf"
"$dir/run.sh" osrm-extract -p "$dir/wheel/osrm/share/profiles/car.lua" "$graph.tmp/rutland.osm.pbf" >"$graph.tmp/extract.log" 2>&1 \
  || { tail -20 "$graph.tmp/extract.log" >&2; exit 1; }
echo "osrm: osrm-partition"
"$dir/run.sh" osrm-partition "$graph.tmp/rutland.osrm" >"$graph.tmp/partition.log" 2>&1 \
  || { tail -20 "$graph.tmp/partition.log" >&2; exit 1; }
echo "osrm: osrm-customize"
"$dir/run.sh" osrm-customize "$graph.tmp/rutland.osrm" >"$graph.tmp/customize.log" 2>&1 \
  || { tail -20 "$graph.tmp/customize.log" >&2; exit 1; }
rm -f "$graph.tmp/rutland.osm.pbf"
touch "$graph.tmp/.complete"
rm -rf "$graph"
mv "$graph.tmp" "$graph"
echo "osrm: Rutland graph built in $graph"
