// A plain NOI 2014 Mahjong bot in C++17: legal moves, its own JSON reading.
//
// Build:  g++ -O2 -std=c++17 -Wall -o plain_bot plain_bot.cpp
// Run:    echo '{"requests":["0 1"],"responses":[],"data":""}' | ./plain_bot
//
// It is restarted every turn: it reads one JSON line, {"requests": [...],
// "responses": [...], "data": "", ...}, rebuilds its tiles from the history
// (the deal "1 ...", its draws "2 C", its own discards "PLAY X") and prints one
// line {"response": "..."}. It never claims a pung or a kong, so it never melds:
// its target hand at the end has no lower-case part.
//
//   0 N / 1 ... / 3 P PENG|GANG|HU ...  ->  PASS
//   2 C           ->  HU if its tiles win, else PLAY the least connected tile
//   3 P PLAY X    ->  HU if X completes its hand, else PASS
//   4             ->  the winning hand closest to its tiles (4 sets and a pair,
//                     at most 4 of a kind), found by a small search

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace std;

// --- tiles: B1..B9, T1..T9, W1..W9 are 0..26 -----------------------------------------------

static const string SUITS = "BTW";

int tile_index(const string& code) {
    if (code.size() != 2) return -1;
    size_t suit = SUITS.find(code[0]);
    if (suit == string::npos || code[1] < '1' || code[1] > '9') return -1;
    return int(suit) * 9 + (code[1] - '1');
}

string tile_code(int i) { return string(1, SUITS[i / 9]) + char('1' + i % 9); }

vector<string> split(const string& text) {
    vector<string> words;
    istringstream in(text);
    string word;
    while (in >> word) words.push_back(word);
    return words;
}

// --- a minimal JSON reader: the input object's "requests" and "responses" ------------------

struct Reader {
    const string& s;
    size_t i = 0;
    bool ok = true;
    explicit Reader(const string& text) : s(text) {}

    void blank() { while (i < s.size() && isspace((unsigned char)s[i])) i++; }
    bool eat(char c) {
        blank();
        if (i < s.size() && s[i] == c) { i++; return true; }
        return false;
    }

    static void put_utf8(string& out, unsigned code) {
        if (code < 0x80) {
            out += char(code);
        } else if (code < 0x800) {
            out += char(0xC0 | (code >> 6));
            out += char(0x80 | (code & 0x3F));
        } else {
            out += char(0xE0 | (code >> 12));
            out += char(0x80 | ((code >> 6) & 0x3F));
            out += char(0x80 | (code & 0x3F));
        }
    }

    string text() {  // a JSON string; the opening quote is next
        string out;
        if (!eat('"')) { ok = false; return out; }
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c != '\\') { out += c; continue; }
            if (i >= s.size()) break;
            char e = s[i++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    unsigned code = 0;
                    for (int k = 0; k < 4 && i < s.size() && isxdigit((unsigned char)s[i]); k++)
                        code = code * 16 + unsigned(isdigit((unsigned char)s[i])
                                                        ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10), i++;
                    put_utf8(out, code);
                    break;
                }
                default: out += e;  // \" \\ \/
            }
        }
        if (i < s.size()) i++; else ok = false;
        return out;
    }

    // Any value; strings found directly in an array are collected in `strings`.
    void value(vector<string>* strings) {
        blank();
        if (i >= s.size()) { ok = false; return; }
        char c = s[i];
        if (c == '"') {
            string t = text();
            if (strings) strings->push_back(t);
        } else if (c == '[') {
            i++;
            if (eat(']')) return;
            do value(strings); while (ok && eat(','));
            if (!eat(']')) ok = false;
        } else if (c == '{') {
            i++;
            if (eat('}')) return;
            do { text(); if (!eat(':')) ok = false; value(nullptr); } while (ok && eat(','));
            if (!eat('}')) ok = false;
        } else {  // a number, true, false or null
            while (i < s.size() && (isalnum((unsigned char)s[i]) || strchr("+-.", s[i]))) i++;
        }
    }

    void top(vector<string>& requests, vector<string>& responses) {
        if (!eat('{')) { ok = false; return; }
        if (eat('}')) return;
        do {
            string key = text();
            if (!eat(':')) { ok = false; return; }
            if (key == "requests") value(&requests);
            else if (key == "responses") value(&responses);
            else value(nullptr);
        } while (ok && eat(','));
    }
};

string json_escape(const string& text) {
    string out;
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') { out += '\\'; out += char(c); }
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20) { char buf[8]; snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
        else out += char(c);
    }
    return out;
}

// --- winning hands ----------------------------------------------------------------------------

bool sets_only(vector<int>& c) {
    int i = 0;
    while (i < 27 && c[i] == 0) i++;
    if (i == 27) return true;
    if (c[i] >= 3) {
        c[i] -= 3;
        bool ok = sets_only(c);
        c[i] += 3;
        if (ok) return true;
    }
    if (i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        bool ok = sets_only(c);
        c[i]++, c[i + 1]++, c[i + 2]++;
        if (ok) return true;
    }
    return false;
}

bool is_winning(vector<int> c) {  // 14 concealed tiles, no melds
    int total = 0;
    for (int n : c) {
        if (n < 0) return false;
        total += n;
    }
    if (total != 14) return false;
    for (int i = 0; i < 27; i++) {
        if (c[i] < 2) continue;
        c[i] -= 2;
        bool ok = sets_only(c);
        c[i] += 2;
        if (ok) return true;
    }
    return false;
}

// --- the target hand: the 4 sets and pair keeping the most of its tiles ------------------------

struct Search {
    vector<int> hand, target = vector<int>(27, 0), best;
    int best_kept = -1, total = 0;  // total: the tiles in hand

    static vector<int> set_tiles(int k) {  // 0..26 pungs, 27..47 runs
        if (k < 27) return {k, k, k};
        int r = k - 27, first = (r / 7) * 9 + r % 7;
        return {first, first + 1, first + 2};
    }
    bool add(const vector<int>& tiles, int& kept) {
        bool fits = true;
        for (int t : tiles) fits = ++target[t] <= 4 && fits;
        if (!fits) { remove(tiles); return false; }
        kept = 0;
        for (int t = 0; t < 27; t++) kept += min(target[t], hand[t]);
        return true;
    }
    void remove(const vector<int>& tiles) { for (int t : tiles) target[t]--; }

    void sets(int from, int left) {
        if (left == 0) { pair(); return; }
        for (int k = from; k < 48; k++) {
            vector<int> tiles = set_tiles(k);
            int kept;
            if (!add(tiles, kept)) continue;
            // Go on only if the rest could still keep more than the best so far.
            if (kept + min(3 * (left - 1) + 2, total - kept) > best_kept) sets(k, left - 1);
            remove(tiles);
        }
    }
    void pair() {
        for (int t = 0; t < 27; t++) {
            int kept;
            if (!add({t, t}, kept)) continue;
            if (kept > best_kept) { best_kept = kept; best = target; }
            remove({t, t});
        }
    }
};

string target_hand(const vector<int>& hand) {
    Search search;
    search.hand = hand;
    for (int n : hand) search.total += max(n, 0);
    search.sets(0, 4);
    string out;
    for (int t = 0; t < 27; t++)
        for (int n = 0; n < search.best[t]; n++) out += (out.empty() ? "" : " ") + tile_code(t);
    return out;
}

// --- the decision -------------------------------------------------------------------------------

int links(const vector<int>& hand, int t) {  // copies and near neighbours of the same suit
    int score = 3 * (hand[t] - 1);
    for (int d = 1; d <= 2; d++)
        for (int u : {t - d, t + d})
            if (u >= 0 && u < 27 && u / 9 == t / 9 && hand[u] > 0) score += 3 - d;
    return score;
}

string respond(const vector<string>& requests, const vector<string>& responses) {
    vector<int> hand(27, 0);
    string seat;
    for (size_t k = 0; k < requests.size(); k++) {
        vector<string> w = split(requests[k]);
        if (w.size() == 2 && w[0] == "0") seat = w[1];
        if (!w.empty() && w[0] == "1") {
            hand.assign(27, 0);
            for (size_t j = 1; j < w.size(); j++)
                if (tile_index(w[j]) >= 0) hand[tile_index(w[j])]++;
        }
        if (w.size() == 2 && w[0] == "2" && tile_index(w[1]) >= 0) hand[tile_index(w[1])]++;
        if (k < responses.size() && k + 1 < requests.size()) {  // its own discards
            vector<string> said = split(responses[k]);
            if (said.size() == 2 && said[0] == "PLAY" && tile_index(said[1]) >= 0)
                hand[tile_index(said[1])]--;
        }
    }
    vector<string> w = split(requests.empty() ? "" : requests.back());
    if (w.size() == 2 && w[0] == "2" && tile_index(w[1]) >= 0) {
        if (is_winning(hand)) return "HU";
        int pick = tile_index(w[1]);  // the drawn tile is surely held
        for (int t = 0; t < 27; t++)
            if (hand[t] > 0 && links(hand, t) < links(hand, pick)) pick = t;
        return "PLAY " + tile_code(pick);
    }
    if (w.size() == 4 && w[0] == "3" && w[2] == "PLAY" && w[1] != seat &&
        tile_index(w[3]) >= 0) {
        vector<int> with_it = hand;
        with_it[tile_index(w[3])]++;
        return is_winning(with_it) ? "HU" : "PASS";
    }
    if (w.size() == 1 && w[0] == "4") return target_hand(hand);
    return "PASS";
}

int main() {
    string line;
    getline(cin, line);
    vector<string> requests, responses;
    Reader reader(line);
    reader.top(requests, responses);
    string answer = reader.ok && !requests.empty() ? respond(requests, responses) : "PASS";
    cout << "{\"response\":\"" << json_escape(answer) << "\"}" << endl;
    return 0;
}
