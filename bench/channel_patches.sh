# Sourced by the bench scripts: the [patch ...] sections of fvgen's channel meshes (inlet,
# outlet, lower_wall, upper_wall, side1, side2), written once for every case file they make.
#   channel_patches [INLET_TYPE [OUTLET_TYPE]]   default: subsonic_inflow subsonic_outflow
channel_patches() {
  cat <<INI
[patch inlet]
type = ${1:-subsonic_inflow}
[patch outlet]
type = ${2:-subsonic_outflow}
[patch lower_wall]
type = slip_wall
[patch upper_wall]
type = slip_wall
[patch side1]
type = symmetry
[patch side2]
type = symmetry
INI
}
