// lkmm: the relational algebra of cat files over the events of one
// candidate execution. A Set is a set of events, a Rel a binary relation,
// each a row of bits per event; the operators are cat's (`;` seq, `|`, `&`,
// `\`, `^-1` inv, `+` plus, `*` star, `?` opt, `[S]` id_on).
#pragma once

#include <bitset>
#include <vector>

namespace vfsmc {
namespace lkmm {

// The most events one candidate execution may have: the initial writes
// plus every thread's events.
constexpr int kMaxEvents = 128;

using Set = std::bitset<kMaxEvents>;

class Rel {
public:
    Rel() = default;
    explicit Rel(int n) : rows_(n) {}

    int size() const { return (int)rows_.size(); }
    bool has(int a, int b) const { return rows_[a][b]; }
    void add(int a, int b) { rows_[a][b] = true; }
    const Set& row(int a) const { return rows_[a]; }
    Set& row(int a) { return rows_[a]; }

    bool empty() const {
        for (const auto& r : rows_)
            if (r.any()) return false;
        return true;
    }
    bool operator==(const Rel& o) const { return rows_ == o.rows_; }
    bool operator!=(const Rel& o) const { return !(*this == o); }

    Rel operator|(const Rel& o) const { Rel r = *this; for (int i = 0; i < size(); i++) r.rows_[i] |= o.rows_[i]; return r; }
    Rel operator&(const Rel& o) const { Rel r = *this; for (int i = 0; i < size(); i++) r.rows_[i] &= o.rows_[i]; return r; }
    Rel operator-(const Rel& o) const { Rel r = *this; for (int i = 0; i < size(); i++) r.rows_[i] &= ~o.rows_[i]; return r; }
    Rel& operator|=(const Rel& o) { for (int i = 0; i < size(); i++) rows_[i] |= o.rows_[i]; return *this; }

    // r ; s
    Rel seq(const Rel& s) const {
        Rel r(size());
        for (int i = 0; i < size(); i++)
            for (int j = 0; j < size(); j++)
                if (rows_[i][j]) r.rows_[i] |= s.rows_[j];
        return r;
    }
    // r^-1
    Rel inv() const {
        Rel r(size());
        for (int i = 0; i < size(); i++)
            for (int j = 0; j < size(); j++)
                if (rows_[i][j]) r.rows_[j][i] = true;
        return r;
    }
    // r+ (Warshall)
    Rel plus() const {
        Rel r = *this;
        for (int k = 0; k < size(); k++)
            for (int i = 0; i < size(); i++)
                if (r.rows_[i][k]) r.rows_[i] |= r.rows_[k];
        return r;
    }
    Rel star() const { return plus().opt(); }
    // r? = r | id
    Rel opt() const { Rel r = *this; for (int i = 0; i < size(); i++) r.rows_[i][i] = true; return r; }
    // [S] ; r  and  r ; [S]
    Rel from(const Set& s) const { Rel r(size()); for (int i = 0; i < size(); i++) if (s[i]) r.rows_[i] = rows_[i]; return r; }
    Rel to(const Set& s) const { Rel r = *this; for (int i = 0; i < size(); i++) r.rows_[i] &= s; return r; }
    // [S] ; r ; [T]
    Rel restrict(const Set& s, const Set& t) const { return from(s).to(t); }

    bool irreflexive() const {
        for (int i = 0; i < size(); i++)
            if (rows_[i][i]) return false;
        return true;
    }
    bool acyclic() const { return plus().irreflexive(); }

    Set domain() const { Set d; for (int i = 0; i < size(); i++) if (rows_[i].any()) d[i] = true; return d; }
    Set range() const { Set d; for (const auto& r : rows_) d |= r; return d; }

    static Rel id(int n, const Set& s) { Rel r(n); for (int i = 0; i < n; i++) if (s[i]) r.rows_[i][i] = true; return r; }
    static Rel cross(int n, const Set& a, const Set& b) { Rel r(n); for (int i = 0; i < n; i++) if (a[i]) r.rows_[i] = b; return r; }

private:
    std::vector<Set> rows_;
};

}  // namespace lkmm
}  // namespace vfsmc
