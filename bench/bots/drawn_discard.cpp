// A fast Botzone bot for benchmarks and tests: simple interaction, keep-running.
// It discards the tile it has just drawn ("2 X" -> "PLAY X") and passes on every
// other request, which is always legal. Written for this project (no code of any
// public bot); built with: g++ -O2 -o drawn_discard drawn_discard.cpp
#include <iostream>
#include <string>

static std::string answer(const std::string& request) {
    if (request.size() > 2 && request[0] == '2' && request[1] == ' ')
        return "PLAY " + request.substr(2);
    return "PASS";
}

static void reply(const std::string& request) {
    std::cout << answer(request) << "\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<" << std::endl;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    if (!std::getline(std::cin, line)) return 0;
    int turns = std::stoi(line);  // simple interaction: the turn number, then history
    std::string request;
    for (int i = 0; i < 2 * turns - 1; ++i) std::getline(std::cin, request);
    std::string skip;
    std::getline(std::cin, skip);  // data
    std::getline(std::cin, skip);  // globaldata
    reply(request);
    while (std::getline(std::cin, request)) reply(request);  // keep-running: one request a turn
    return 0;
}
