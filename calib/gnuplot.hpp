// Drawing with gnuplot, the same way in every tool (modeltuned fit --plot, modeltuned validate,
// modeltuned-calibrate --plot, modeltuned-bench --plot): a figure is a gnuplot script and its
// data files, written side by side into one directory and drawn there, so the script names its
// files without a directory. They stay beside the image: a figure can be edited and redrawn by
// hand (cd DIR && gnuplot NAME.gp), and it is drawn later that way where gnuplot is missing.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace modeltuned::calib {

class PlotError : public std::runtime_error {
  using runtime_error::runtime_error;
};

struct Figure {
  std::string name;    // the script is NAME.gp
  std::string image;   // the file the script's `set output` names (NAME.png, NAME.svg)
  std::string script;  // gnuplot commands
  std::vector<std::pair<std::string, std::string>> data;  // (file name, contents)
};

// $GNUPLOT, else the gnuplot configure found, else gnuplot from PATH.
std::string gnuplot_program();

// "" when gnuplot_program() can be run; otherwise one sentence saying how to get it.
std::string gnuplot_missing();

// A gnuplot single-quoted string: 'it''s'.
std::string gnuplot_quoted(const std::string &text);

struct Drawn {
  bool images = false;  // gnuplot ran and wrote every image
  std::string summary;  // one line for the user: where the images are, or why there are none
};

// Writes every figure into `dir` (created if needed) and, when gnuplot is present, draws them.
// Without gnuplot the scripts and data are still written, and the summary says how to draw them.
// Throws PlotError when a file cannot be written or gnuplot fails (with gnuplot's complaint).
Drawn draw_figures(const std::filesystem::path &dir, const std::vector<Figure> &figures);

}  // namespace modeltuned::calib
