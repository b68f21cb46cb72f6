// Benchmarks registered from main() rather than during static initialisation (bench_main.cpp).
#pragma once

#include <vector>

std::vector<void (*)()>& late_registrations();

struct LateRegistration {
  explicit LateRegistration(void (*f)()) { late_registrations().push_back(f); }
};
