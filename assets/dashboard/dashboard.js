/* global document */
// The dashboard works without this file; it only makes the manifest drop zone show what is happening.
for (const zone of document.querySelectorAll('.dropzone')) {
  const input = zone.querySelector('input[type=file]');
  const label = zone.querySelector('span');
  const show = () => {
    if (input && label && input.files && input.files.length > 0) label.textContent = `Selected: ${input.files[0].name}`;
  };
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    if (input && event.dataTransfer && event.dataTransfer.files.length > 0) {
      input.files = event.dataTransfer.files;
      show();
    }
  });
  input?.addEventListener('change', show);
}
