// The phone's provisional scorer: it reads the game as the page hands it
// (models/services/game_json.py offline_fields: the game's JSON shape, the API's names, and the
// rules as data from the core, models/core/scorer_data.py) and plays the manches through as the
// data says — the mode's numbers (what a side pays, what the winners collect, a tie, whether the
// lowest total wins), the keys' points, the end, the deal and the seats in table order. No rule is
// written here that is not in that data; tests/browser/test_offline_scorer.py plays the same games
// through models/core/scoring.py's play_through and requires the same numbers.
(function (scope) {
  "use strict";

  function own(object, key) { return object !== null && Object.prototype.hasOwnProperty.call(object, key); }
  function get(object, key) { return own(object, key) ? object[key] : 0; }
  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }
  function dict() { return Object.create(null); }  // keyed by names: no name is taken for something else

  // --- seats: the game's JSON (players by seat, teams, roster, table_order) read once --------

  // The game as the functions below read it: roster[name] = [manches before sitting down, manches
  // played when leaving or null, start] for those who joined or left; order, the seats in table
  // order; teams, [[name, [members]], ...] in the order of their first member's seat (as the game
  // lists them: an object's keys would put a team named "12" first).
  function readGame(m) {
    var seat = dict(), teamOf = dict(), teams = [];
    m.roster.forEach(function (r) { seat[r.name] = [r.joined_after, r.left_after, r.start_total]; });
    if (m.teams) Object.keys(m.teams).forEach(function (name) { m.teams[name].forEach(function (p) { teamOf[p] = name; }); });
    m.players.forEach(function (p) {
      if (own(teamOf, p) && !teams.some(function (t) { return t[0] === teamOf[p]; })) teams.push([teamOf[p], m.teams[teamOf[p]]]);
    });
    return {
      mode: m.mode, keys: m.keys, end: m.end, deal: m.deal, players: m.players, roster: seat,
      teams: m.teams ? teams : null, order: m.table_order.map(function (name) { return m.players.indexOf(name); }),
    };
  }

  function plays(m, name, number) {
    if (!own(m.roster, name)) return true;
    var seat = m.roster[name];
    return seat[0] < number && (seat[1] === null || number <= seat[1]);
  }
  function seated(m, number) { return m.players.filter(function (name) { return plays(m, name, number); }); }

  // Who plays first: the next at the table after the dealer (the first at the table if the dealer is not dealt in).
  function starter(game, number, dealer) {
    var m = readGame(game);
    var around = m.order.map(function (seat) { return m.players[seat]; }).filter(function (name) { return plays(m, name, number); });
    var at = around.indexOf(m.players[dealer]);
    return at === -1 ? around[0] : around[(at + 1) % around.length];
  }

  // The first seat dealt in manche `number` going round the table (m.order) from `after`, `after` last.
  function nextSeated(m, number, after) {
    var count = m.order.length, start = m.order.indexOf(after % m.players.length);
    for (var step = 1; step <= count; step++) {
      var seat = m.order[(start + step) % count];
      if (plays(m, m.players[seat], number)) return seat;
    }
    return after % m.players.length;
  }

  // --- sides: a player, or a team (m.teams: [[name, [members]], ...]) when everybody is dealt in

  function sidesAt(m, players) {
    var teams = players.length === m.players.length ? m.teams : null, of = dict();
    players.forEach(function (name) { of[name] = name; });
    if (teams) teams.forEach(function (team) { team[1].forEach(function (name) { of[name] = team[0]; }); });
    return { of: of, names: teams ? teams.map(function (team) { return team[0]; }) : players.slice() };
  }

  // A manche's points by side from the side values, as the mode's numbers say (variant.MODES):
  // the winners are the side that went out, or the lowest in a blocked manche (several: m.mode.tie).
  function manchePoints(mode, sides, values, winning) {
    var winners = [winning], base = 0, points = dict();
    function value(side) { return get(values, side); }
    if (winning === null) {
      base = Math.min.apply(null, sides.map(value));
      winners = sides.filter(function (side) { return value(side) === base; });
    }
    var nobody = winners.length > 1 && mode.tie === "void";
    var losers = sides.filter(function (side) { return winners.indexOf(side) === -1; });
    var collected = sum(losers.map(function (side) { return value(side) - base; }));
    sides.forEach(function (side) {
      if (nobody) points[side] = 0;
      else points[side] = winners.indexOf(side) !== -1 ? mode.collects * collected + mode.bonus : mode.pays * value(side);
    });
    return points;
  }

  // The winner's side's own hands do not count when someone went out; every hand in a blocked manche.
  function sidePoints(m, number, winner, values) {
    var sides = sidesAt(m, seated(m, number)), winning = winner ? sides.of[winner] : null, bySide = dict();
    Object.keys(values).forEach(function (name) {
      var side = sides.of[name];
      if (winning !== null && side === winning) return;
      bySide[side] = get(bySide, side) + values[name];
    });
    return manchePoints(m.mode, sides.names, bySide, winning);
  }

  // Where the game stands: those who left (`gone`) ranked after those playing, each in a place of their own.
  function standing(m, sides, totals, played, gone) {
    var sign = m.mode.low_wins ? 1 : -1;
    function rank(list) {
      return list.map(function (side, i) { return [side, totals[side], i]; }).sort(function (a, b) {
        return sign * (a[1] - b[1]) || a[2] - b[2];
      });
    }
    var ordered = rank(sides.filter(function (s) { return !own(gone, s); }))
      .concat(rank(sides.filter(function (s) { return own(gone, s); })));
    var ranking = [], place = 0;
    ordered.forEach(function (row, i) {
      if (i === 0 || row[1] !== ordered[i - 1][1] || own(gone, row[0])) place = i + 1;
      ranking.push([place, row[0], row[1]]);
    });
    var end = m.end, finished = end.rounds ? played >= end.rounds
      : played > 0 && sides.some(function (s) { return totals[s] >= end.target; });
    return {
      finished: finished,
      winners: finished ? ranking.filter(function (r) { return r[0] === 1 && !own(gone, r[1]); }).map(function (r) { return r[1]; }) : [],
      ranking: ranking,
    };
  }

  // The seat left with the highest hand, the first of them going round from the dealer.
  function mancheLoser(m, values, dealer) {
    var names = Object.keys(values);
    if (!names.length) return dealer;
    var high = Math.max.apply(null, names.map(function (name) { return values[name]; }));
    var count = m.order.length, start = m.order.indexOf(dealer % m.players.length);
    for (var step = 0; step < count; step++) {
      var seat = m.order[(start + 1 + step) % count];
      if (own(values, m.players[seat]) && values[m.players[seat]] === high) return seat;
    }
    return null;
  }

  // manches: [{number, winner: a player or null, values: {player: hand value}}, ...] (the game's
  // own: game.manches.concat(game.after_end), then those waiting on this phone)
  function playThrough(game, manches) {
    var m = readGame(game), sides = sidesAt(m, m.players).names, running = dict(), counted = 0, dealers = [], all = [];
    var previous = null, loser = null;
    sides.forEach(function (side) { running[side] = 0; });

    function dealerOf(number) {
      if (previous === null || (m.deal.loser_deals && loser !== null)) {
        var seat = previous === null ? m.deal.first % m.players.length : loser;
        return plays(m, m.players[seat], number) ? seat : nextSeated(m, number, seat);
      }
      return nextSeated(m, number, previous);
    }
    function sitDown(number) {  // the start of those who sat down after manche number - 1
      m.players.forEach(function (name) {
        var seat = own(m.roster, name) && m.roster[name];
        if (seat && seat[0] === number - 1 && seat[0] > 0 && own(running, name)) running[name] += seat[2];
      });
    }
    function over() { return counted && standing(m, sides, running, counted, dict()).finished; }

    manches.forEach(function (manche, index) {
      var number = index + 1, points = sidePoints(m, number, manche.winner, manche.values), seat = dealerOf(number);
      all.push(points);
      dealers.push(seat);
      previous = seat;
      if (counted < number - 1 || over()) return;  // played after the end: shown, never counted
      counted = number;
      sitDown(number);
      loser = mancheLoser(m, manche.values, seat);
      sides.forEach(function (side) { running[side] += get(points, side); });
    });
    if (!standing(m, sides, running, counted, dict()).finished) sitDown(counted + 1);
    var gone = dict();
    m.players.forEach(function (name) {
      if (own(m.roster, name) && m.roster[name][1] !== null && m.roster[name][1] <= counted) gone[name] = true;
    });
    return {
      points: all, dealers: dealers, counted: counted, totals: running,
      standing: standing(m, sides, running, counted, gone), next_dealer: dealerOf(counted + 1),
    };
  }

  // A hand entered on the keypad ({token: count}) by the keys' points.
  function handValue(m, counts) {
    return sum(Object.keys(counts).map(function (token) { return get(m.keys, token) * counts[token]; }));
  }

  scope.CarteScore = { playThrough: playThrough, handValue: handValue, starter: starter };
})(self);
