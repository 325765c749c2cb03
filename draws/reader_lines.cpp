#include "draws/reader_lines.hpp"

#include <cerrno>
#include <cstring>

#include "core/source_error.hpp"

namespace ppl::draws::detail {

line_reader::line_reader(const std::string& path)
    : path_(path), file_(std::fopen(path.c_str(), "rb"), &std::fclose), buffer_(new char[capacity_]) {
  if (!file_) throw ppl::source_error({path, {}, std::string("cannot open the draws file: ") + std::strerror(errno), "", ""});
}

bool line_reader::next(std::string_view& line, bool& complete) {
  for (;;) {
    if (start_ >= end_ && eof_) return false;
    const char* first = buffer_.get() + start_;
    const auto* newline = static_cast<const char*>(std::memchr(first, '\n', end_ - start_));
    if (newline || eof_) {
      const std::size_t stop = newline ? static_cast<std::size_t>(newline - buffer_.get()) : end_;
      line = std::string_view(first, stop - start_);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      complete = newline != nullptr;
      start_ = stop + 1;
      ++number_;
      return true;
    }
    refill();
  }
}

// Moves the unread part of the buffer to its front and reads after it.
void line_reader::refill() {
  std::memmove(buffer_.get(), buffer_.get() + start_, end_ - start_);
  end_ -= start_;
  start_ = 0;
  if (end_ == capacity_) {  // one line fills the buffer
    std::unique_ptr<char[]> larger(new char[2 * capacity_]);
    std::memcpy(larger.get(), buffer_.get(), end_);
    buffer_ = std::move(larger);
    capacity_ *= 2;
  }
  const std::size_t n = std::fread(buffer_.get() + end_, 1, capacity_ - end_, file_.get());
  if (n == 0) {
    if (std::ferror(file_.get()))
      throw ppl::source_error({path_, {}, std::string("cannot read the draws file: ") + std::strerror(errno), "", ""});
    eof_ = true;
  }
  end_ += n;
}

}  // namespace ppl::draws::detail
