#include "calib/gnuplot.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace modeltuned::calib {
namespace {

namespace fs = std::filesystem;

bool executable(const std::string &program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char *path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/bin:/bin";
  size_t at = 0;
  while (at <= dirs.size()) {
    size_t end = dirs.find(':', at);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > at ? dirs.substr(at, end - at) : ".";
    if (access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    at = end + 1;
  }
  return false;
}

void write_file(const fs::path &path, const std::string &contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
  out.close();
  if (!out) throw PlotError("cannot write " + path.string() + ": " + std::strerror(errno));
}

// gnuplot reports an error as the offending line, a caret, then `"NAME.gp" line N: what`.
std::string last_line(const std::string &text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

// Runs gnuplot on NAME.gp inside `dir` (no shell: any character is fine in a path). Its output
// goes to a temporary file, so that the figure's directory holds the figure only.
void run_gnuplot(const fs::path &dir, const Figure &figure) {
  const std::string program = gnuplot_program(), script = figure.name + ".gp";
  const fs::path log_dir = std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::string log_path = (log_dir / "modeltuned-gnuplot-XXXXXX").string();
  const int log = mkstemp(log_path.data());
  if (log < 0) throw PlotError("cannot create a temporary file in " + log_dir.string() + ": " + std::strerror(errno));
  const pid_t child = fork();
  if (child == 0) {
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    if (chdir(dir.c_str()) == 0) execlp(program.c_str(), program.c_str(), script.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  close(log);
  int status = 0;
  while (child > 0 && waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream in(log_path);
  std::ostringstream output;
  output << in.rdbuf();
  unlink(log_path.c_str());
  if (child < 0) throw PlotError(std::string("cannot start gnuplot: ") + std::strerror(errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string why = last_line(output.str());
    throw PlotError(program + " failed on " + (dir / script).string() + ": " +
                    (why.empty() ? "status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) : why));
  }
  std::error_code ec;
  if (!figure.image.empty() && fs::file_size(dir / figure.image, ec) == 0)
    throw PlotError(program + " wrote no " + (dir / figure.image).string() + " from " + (dir / script).string());
}

}  // namespace

std::string gnuplot_program() {
  if (const char *g = std::getenv("GNUPLOT"); g && *g) return g;
#ifdef MODELTUNED_GNUPLOT
  if (*MODELTUNED_GNUPLOT) return MODELTUNED_GNUPLOT;
#endif
  return "gnuplot";
}

std::string gnuplot_missing() {
  const std::string program = gnuplot_program();
  if (executable(program)) return "";
  return "gnuplot ('" + program +
         "') was not found; install it (apt-get install gnuplot-nox) or set GNUPLOT=/path/to/gnuplot";
}

std::string gnuplot_quoted(const std::string &text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

Drawn draw_figures(const fs::path &where_given, const std::vector<Figure> &figures) {
  const fs::path dir = where_given.empty() ? fs::path(".") : where_given;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw PlotError("cannot create directory " + dir.string() + ": " + ec.message());
  for (const Figure &f : figures) {
    for (const auto &[name, contents] : f.data) write_file(dir / name, contents);
    write_file(dir / (f.name + ".gp"), f.script);
  }
  Drawn drawn;
  const std::string where = dir.string();
  if (figures.empty()) {
    drawn.summary = "plots: nothing to draw";
    return drawn;
  }
  if (const std::string missing = gnuplot_missing(); !missing.empty()) {
    drawn.summary = "plots: not drawn: " + missing + "; the scripts and their data are in " + where +
                    ": draw them there with gnuplot " + (figures.size() == 1 ? figures[0].name : "NAME") + ".gp";
    return drawn;
  }
  for (const Figure &f : figures) run_gnuplot(dir, f);
  drawn.images = true;
  drawn.summary = figures.size() == 1
                      ? "plot: " + (dir / figures[0].image).string() + " (its gnuplot script and data are beside it)"
                      : "plots: " + std::to_string(figures.size()) + " images in " + where +
                            " (with their gnuplot scripts and data)";
  return drawn;
}

}  // namespace modeltuned::calib
