// The embedding example: loads Foyer's SDK from the Foyer that serves the
// meeting, puts a <foyer-meeting> on the page, logs every event it emits,
// and sends the commands of the buttons. `?src=REDIRECT_URL&name=Ann`
// opens a meeting at once. `window.foyerLog` keeps the events (for tests).

const EVENTS = ['ready', 'joined', 'left', 'participant_joined', 'participant_left', 'knocking', 'admitted', 'waiting_changed', 'media_changed', 'chat_message', 'locked', 'unlocked', 'ended', 'error', 'command_done'];
const log = document.getElementById('log');
const stage = document.getElementById('stage');
window.foyerLog = [];
let meeting = null;

function write(text) {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  log.prepend(item);
}

async function open(src, name) {
  // The SDK comes from the Foyer that serves the meeting: no copy to keep up to date.
  await import(new URL('/sdk/foyer.js', src).href);
  meeting?.remove();
  meeting = document.createElement('foyer-meeting');
  for (const type of EVENTS) {
    meeting.addEventListener(type, (event) => {
      window.foyerLog.push(event.detail);
      const { source, type: _type, ...rest } = event.detail;
      write(`${type} ${JSON.stringify(rest)}`);
    });
  }
  meeting.setAttribute('display-name', name);
  meeting.setAttribute('src', src);
  stage.replaceChildren(meeting);
}

document.getElementById('setup').addEventListener('submit', (event) => {
  event.preventDefault();
  void open(document.getElementById('src').value, document.getElementById('name').value);
});

for (const button of document.querySelectorAll('[data-command]')) {
  button.addEventListener('click', async () => {
    if (!meeting) return write('open a meeting first');
    const command = button.dataset.command;
    try {
      await meeting[command]();
      write(`${command}() done`);
    } catch (error) {
      write(`${command}() refused: ${error.code}`);
    }
  });
}

const query = new URLSearchParams(location.search);
if (query.get('src')) {
  document.getElementById('src').value = query.get('src');
  document.getElementById('name').value = query.get('name') ?? 'Guest';
  void open(query.get('src'), query.get('name') ?? 'Guest');
}
