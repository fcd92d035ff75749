"""What vulture (dead code, in CI) cannot see used: attributes that frameworks read (Flask's
session and response settings, SQLite's connection), hooks named by a library, values read in
templates. A name here is used; a name that is not is removed, not listed."""

# ruff: noqa
from app import create_app

_ = create_app  # the application factory: `flask --app app`, gunicorn 'app:create_app()'
_.ensure_ascii  # app.json.ensure_ascii: Flask's JSON provider setting
_.session_interface  # Flask's session interface
_.permanent  # session.permanent: Flask keeps the cookie past the browser session
_.max_age, _.no_cache, _.public, _.immutable  # response.cache_control: werkzeug sends them
_.isolation_level  # sqlite3 connection attribute (BEGIN IMMEDIATE by hand)
_.may_be_fragment  # flask.g flag read by views/kit.py's after_request hook
_.must_play  # read from the variant files (les-huit); the referee's use of it: issue 26
_.title_parts, _.played_at, _.last_x, _.last_y, _.target_y, _.earlier, _.average, _.more  # read by templates
_.name_inputs  # read by templates/games/new.html
_.sits_after  # read by templates/games/_notice.html
_.split_counters_warning  # called by gunicorn.conf.py's when_ready hook
_.sort_keys  # app.json.sort_keys: Flask's JSON provider setting
_.CONNECTIONS_PER_PROCESS  # the budget docs/hosting.md states; tests/integration/test_connection_budget.py holds it
_.tied  # club_night.Placed.tied: read by templates/nights/_live.html
_.max_content_length  # request.max_content_length: werkzeug reads it when the body is read (a group's archive may be larger)
