from sciverify.cli import main

main()
