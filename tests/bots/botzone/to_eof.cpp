// A C++ bot that reads its whole input to end of file before it answers, as Botzone's
// sample bot does with jsoncpp's `cin >> value` (written anew, no jsoncpp): JSON
// interaction. It plays the tile it drew (`2 X` -> `PLAY X`) and passes otherwise.
#include <iostream>
#include <iterator>
#include <string>

// The last string of the "requests" array: the current request.
static std::string last_request(const std::string& input) {
    std::string last;
    std::size_t at = input.find("\"requests\"");
    if (at == std::string::npos) return last;
    at = input.find('[', at);
    while (at != std::string::npos && at < input.size()) {
        std::size_t open = input.find_first_of("\"]", at + 1);
        if (open == std::string::npos || input[open] == ']') break;
        std::size_t close = input.find('"', open + 1);
        if (close == std::string::npos) break;
        last = input.substr(open + 1, close - open - 1);
        at = close;
    }
    return last;
}

int main() {
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    std::string request = last_request(input);
    std::string response = "PASS";
    if (request.size() > 2 && request[0] == '2' && request[1] == ' ' &&
        request.find(' ', 2) == std::string::npos)
        response = "PLAY " + request.substr(2);
    std::cout << "{\"response\":\"" << response << "\"}" << std::endl;
    return 0;
}
