#include "prep/mesh_info.hpp"
#include "common/json.hpp"

#include "common/cell_shapes.hpp"
#include "prep/mesh_ids.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>

namespace fv {

MeshSummary summarize_mesh(const Mesh& mesh, const ValidationReport& r) {
  MeshSummary s;
  s.path = mesh.path;
  s.format = mesh.format;
  s.writer = mesh.writer;
  for (CellType t : mesh.cellType)
    ++s.cellsByType[static_cast<std::size_t>(t)];
  s.cells = mesh.nCells();
  s.nodes = mesh.nNodes() - r.danglingNodes;
  s.faces = r.faces.nFaces();
  s.boundaryFaces = r.faces.nBoundaryFaces();
  s.interiorFaces = s.faces - s.boundaryFaces;
  for (const Patch& p : r.faces.patches)
    s.patches.push_back({p.name, p.bcType, 0});
  for (idx_t p : r.faces.patch)
    if (p >= 0) ++s.patches[static_cast<std::size_t>(p)].faces;
  s.zones = mesh.fileZones;
  s.bboxMin = r.bboxMin;
  s.bboxMax = r.bboxMax;
  const auto& vol = r.geometry.cells.volume;
  if (!vol.empty()) {
    const auto [mn, mx] = std::minmax_element(vol.begin(), vol.end());
    s.minVolume = *mn;
    s.maxVolume = *mx;
    s.minVolumeCell = cell_file_id(mesh, static_cast<idx_t>(mn - vol.begin()));
    s.maxVolumeCell = cell_file_id(mesh, static_cast<idx_t>(mx - vol.begin()));
    long double sum = 0;
    for (real_t v : vol)
      sum += v;
    s.totalVolume = static_cast<real_t>(sum);
  }
  s.warnings = r.warnings;
  return s;
}

void print_summary_text(std::ostream& os, const MeshSummary& s) {
  const auto old = os.flags();
  os << "file:      " << s.path << "\n";
  os << "format:    " << s.format << "\n";
  os << "writer:    " << (s.writer.empty() ? "(not recorded)" : s.writer) << "\n";
  if (!s.zones.empty()) {
    os << "zones:     " << s.zones.size() << " merged (";
    for (std::size_t i = 0; i < s.zones.size(); ++i)
      os << (i ? ", " : "") << s.zones[i];
    os << ")\n";
  }
  os << "cells:     " << s.cells << "\n";
  for (int t = 0; t < kCellTypeCount; ++t)
    if (s.cellsByType[t] > 0)
      os << "  " << std::left << std::setw(13) << cell_type_name(static_cast<CellType>(t))
         << std::right << std::setw(12) << s.cellsByType[t] << "\n";
  os << "nodes:     " << s.nodes << "\n";
  os << "faces:     " << s.faces << " (" << s.interiorFaces << " interior, " << s.boundaryFaces
     << " boundary)\n";
  os << "patches:   " << s.patches.size() << "\n";
  std::size_t w = 4;
  for (const auto& p : s.patches)
    w = std::max(w, p.name.size());
  for (const auto& p : s.patches)
    os << "  " << std::left << std::setw(static_cast<int>(w)) << p.name << "  " << std::setw(20)
       << p.bcType << std::right << std::setw(10) << p.faces << " faces\n";
  os << std::setprecision(6);
  os << "bounding box: [" << s.bboxMin[0] << ", " << s.bboxMax[0] << "] x [" << s.bboxMin[1] << ", "
     << s.bboxMax[1] << "] x [" << s.bboxMin[2] << ", " << s.bboxMax[2] << "]\n";
  os << "volume:    total " << s.totalVolume << ", min " << s.minVolume << " (cell "
     << s.minVolumeCell << "), max " << s.maxVolume << " (cell " << s.maxVolumeCell << ")\n";
  if (s.warnings.empty()) {
    os << "warnings:  none\n";
  } else {
    os << "warnings:  " << s.warnings.size() << "\n";
    for (const auto& wn : s.warnings)
      os << "  - " << wn << "\n";
  }
  os.flags(old);
}

namespace {

std::string json_num(real_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

} // namespace

void print_summary_json(std::ostream& os, const MeshSummary& s) {
  os << "{\n  \"file\": " << json_quote(s.path) << ",\n  \"format\": " << json_quote(s.format)
     << ",\n  \"writer\": " << json_quote(s.writer) << ",\n  \"cells\": {\"total\": " << s.cells;
  for (int t = 0; t < kCellTypeCount; ++t)
    os << ", " << json_quote(cell_type_name(static_cast<CellType>(t))) << ": " << s.cellsByType[t];
  os << "},\n  \"nodes\": " << s.nodes << ",\n  \"faces\": {\"total\": " << s.faces
     << ", \"interior\": " << s.interiorFaces << ", \"boundary\": " << s.boundaryFaces
     << "},\n  \"patches\": [";
  for (std::size_t i = 0; i < s.patches.size(); ++i)
    os << (i ? ",\n    " : "\n    ") << "{\"name\": " << json_quote(s.patches[i].name)
       << ", \"bcType\": " << json_quote(s.patches[i].bcType)
       << ", \"faces\": " << s.patches[i].faces << "}";
  os << "\n  ],\n  \"zones\": [";
  for (std::size_t i = 0; i < s.zones.size(); ++i)
    os << (i ? ", " : "") << json_quote(s.zones[i]);
  os << "],\n  \"boundingBox\": {\"min\": [" << json_num(s.bboxMin[0]) << ", "
     << json_num(s.bboxMin[1]) << ", " << json_num(s.bboxMin[2]) << "], \"max\": ["
     << json_num(s.bboxMax[0]) << ", " << json_num(s.bboxMax[1]) << ", " << json_num(s.bboxMax[2])
     << "]},\n  \"volume\": {\"total\": " << json_num(s.totalVolume)
     << ", \"min\": " << json_num(s.minVolume) << ", \"max\": " << json_num(s.maxVolume)
     << ", \"minCell\": " << s.minVolumeCell << ", \"maxCell\": " << s.maxVolumeCell
     << "},\n  \"warnings\": [";
  for (std::size_t i = 0; i < s.warnings.size(); ++i)
    os << (i ? ",\n    " : "\n    ") << json_quote(s.warnings[i]);
  os << (s.warnings.empty() ? "]" : "\n  ]") << "\n}\n";
}

} // namespace fv
