"""Drop-in replacements for other libraries' linkifiers, built on uts58.

* :mod:`uts58.compat.bleach`: ``Linker``, ``linkify`` and the callbacks of
  ``bleach.linkify`` (bleach is deprecated);
* :mod:`uts58.compat.django`: ``urlize`` and the ``urlize``/``urlizetrunc``
  template filters of Django.

Neither bleach nor Django is needed: each module takes their signatures and
protocols, not their code.  The migration guides (docs/migrating-from-bleach.md,
docs/migrating-from-django.md) list
every place where the result differs on purpose.
"""
