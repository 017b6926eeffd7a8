# Shared start of the bench/device_*.sh scripts (sourced, not run): output folder and log, the
# carried Debian packages, the GPU's name, and a CUDA (sm_${CUDA_ARCH:-90}) Release build of the
# given targets into build-device.
#   name=device_x; . bench/device_common.sh; device_build fvrun fvprep ...
# Sets out, start, bdir; defines log() and use_nccl(); exits on a failed build.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:?set OUT}
mkdir -p "$out"
start=$(date +%s)
log() { echo "[${name:-device} $(( $(date +%s) - start ))s] $*"; }
exec > >(tee -a "$out/device.log") 2>&1
[ -d .deps ] && . scripts/device-setup.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
bdir=build-device
device_build() {
  log "configure + build"
  cmake -S . -B "$bdir" -DFV_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" \
    -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1 &&
    cmake --build "$bdir" -j"${JOBS:-$(nproc)}" --target "$@" >>"$out/build.log" 2>&1 ||
    { log "BUILD FAILED"; tail -40 "$out/build.log"; exit 1; }
  log "build done"
}
# NCCL for the nccl transport: the toolkit's, else Python's nvidia-nccl package (the device
# image's PyTorch) through NCCL_HOME, which CMake reads; its library joins LD_LIBRARY_PATH.
use_nccl() {
  if [ -z "${NCCL_HOME:-}" ] && [ ! -f /usr/local/cuda/include/nccl.h ]; then
    NCCL_HOME=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null) &&
      export NCCL_HOME
  fi
  if [ -n "${NCCL_HOME:-}" ]; then
    export LD_LIBRARY_PATH=$NCCL_HOME/lib:$LD_LIBRARY_PATH
    [ -e "$NCCL_HOME/lib/libnccl.so" ] || ln -sf libnccl.so.2 "$NCCL_HOME/lib/libnccl.so" 2>/dev/null
    log "NCCL from $NCCL_HOME"
  fi
}
