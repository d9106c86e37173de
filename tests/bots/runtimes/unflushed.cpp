// The drawbot (discard what it draws, pass every claim) written as a C++ student
// who made its streams fast writes it: cin is untied from cout and every line ends
// in "\n", never std::endl, so nothing reaches the server until the program exits.
#include <iostream>
#include <sstream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    std::string line;
    int me = -1;
    std::cout << "join\n";
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string word;
        in >> word;
        if (word == "id") {
            in >> me;
        } else if (word == "pick") {
            std::string tile;
            in >> tile;
            std::cout << "out " << tile << "\n";
        } else if (word == "mout" || word == "mjgang") {
            int seat;
            in >> seat;
            if (seat != me) std::cout << "pass\n";
        }
    }
}
