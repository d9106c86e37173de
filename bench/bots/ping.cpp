// The sandbox bench's C++ bot: answers each line with "ok" and the line.
// Built by bench/bench_sandbox.py with: g++ -O2 -o ping ping.cpp
#include <iostream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) std::cout << "ok " << line << std::endl;
}
